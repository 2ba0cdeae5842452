/**
 * The documentation page: Swagger UI (served by the api itself, see
 * assets.ts) rendering /api/business/openapi.json. The page carries no
 * inline script, so its Content-Security-Policy can allow scripts from this
 * origin only; the boot code is a served file of its own.
 */

import { PATHS, pathTo } from '../../shared/contracts/http-paths.js';

const asset = (file: string) => pathTo(PATHS.DOCS_ASSET, { file });

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>AI-answer monitoring API</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="${asset('docs.css')}">
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32">
<link rel="icon" type="image/png" href="${asset('favicon-16x16.png')}" sizes="16x16">
</head>
<body>
<div id="swagger-ui"><p class="loading">Loading <a href="${PATHS.OPENAPI}">openapi.json</a>…</p></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset('docs-init.js')}"></script>
</body>
</html>
`;

/**
 * `validatorUrl: null`: Swagger UI would otherwise send the document to
 * validator.swagger.io for its badge; the page must not reach outside.
 */
export const DOCS_INIT_SCRIPT = `'use strict';
window.ui = SwaggerUIBundle({
  url: '${PATHS.OPENAPI}',
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  presets: [SwaggerUIBundle.presets.apis],
  deepLinking: true,
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  filter: true,
});
`;

export const DOCS_STYLE = `body { margin: 0; background: #fafafa; }
.loading { font: 15px system-ui, sans-serif; padding: 24px; }
`;

/**
 * Scripts and styles from this origin only. Swagger UI sets inline style
 * attributes and draws icons as data: images; "Try it out" calls the api at
 * this origin or at PUBLIC_BASE_URL, the server the document names.
 */
export function docsPolicy(publicBaseUrl: string | undefined): string {
  const api = publicBaseUrl ? ` ${new URL(publicBaseUrl).origin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${api}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
