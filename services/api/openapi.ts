/**
 * The OpenAPI 3.1 document, generated from the zod schemas that validate
 * requests (services/shared/requests, services/shared/contracts/http.ts) and describe
 * answers (services/shared/contracts/http.ts). Every status a route can answer is listed with it,
 * every body has examples (test/unit/api/openapi-examples.test.ts checks
 * them against their schemas), and the completion callback is a webhook.
 */
import { callbackPaths, callbackWebhooks } from './openapi-callbacks.js';
import { monitorWebhooks } from './openapi-monitor-webhooks.js';
import { errorTypesTable } from './openapi-errors.js';
import { eventPaths } from './openapi-events.js';
import { evidencePaths } from './openapi-evidence.js';
import { exportPath } from './openapi-export.js';
import { monitorPaths } from './openapi-monitors.js';
import { monitorFeedPaths } from './openapi-monitor-feed.js';
import { documentedPlatformConfig, SchemaSet, type Json } from './openapi-parts.js';
import { servicePaths } from './openapi-service.js';
import { surfacePaths } from './openapi-surfaces.js';
import { mcpPaths } from './openapi-mcp.js';
import { taskPaths } from './openapi-tasks.js';

const TAGS = [
  { name: 'auth', description: 'Exchange an API key for a bearer token' },
  { name: 'tasks', description: 'Submit, follow and read batch tasks' },
  { name: 'callbacks', description: 'The signed completion callback and its settings' },
  { name: 'monitors', description: 'Recurring runs of a prompt set, with figures per run' },
  { name: 'platforms', description: 'The AI platforms, their channels and modes' },
  { name: 'proxies', description: 'Regions a task can be run from' },
  { name: 'service', description: 'Health, probes and this documentation' },
  { name: 'operator', description: 'Cluster state, for users with the operator role' },
  { name: 'agents', description: 'The MCP server: the same reads and submission as tools' },
];

const DESCRIPTION = [
  'Submit prompts × AI platforms, follow the task (poll its status, read its event stream or wait for the signed callback), then read structured answers, sources, citations and brand visibility, or export them as a file.',
  '',
  'Authenticate with `POST /api/business/auth/token` and send `Authorization: Bearer <accessToken>`. Every JSON answer is the envelope `{success, code, message, data}`; every error is the envelope with `code` = the HTTP status (see the ErrorEnvelope schema for every error type).',
  '',
  'Request bodies are UTF-8 JSON whose strings are Unicode text: invalid UTF-8 or a lone surrogate escape (\\ud800) is a 400 naming the field. On any path, a method the path does not allow is a 405 with an Allow header, and a method the service does not know (QUERY, PROPFIND, …) is a 501.',
].join('\n');

export function buildOpenApi(
  version: string,
  serverUrl: string,
  channelChoices: Readonly<Record<string, string>> = {},
): Json {
  const set = new SchemaSet();
  const paths: Json = {
    ...servicePaths(set, version),
    ...taskPaths(set),
    ...exportPath(set),
    ...evidencePaths(set),
    ...eventPaths(set),
    ...callbackPaths(set),
    ...monitorPaths(set),
    ...monitorFeedPaths(set),
    ...surfacePaths(set),
    ...mcpPaths(set),
  };
  const webhooks = { ...callbackWebhooks(set), ...monitorWebhooks(set) };
  // The submission check runs the catalogue, not a zod enum: document what it enforces.
  set.components.PlatformConfig = set.json(documentedPlatformConfig(channelChoices), 'input');
  set.components.ErrorEnvelope = {
    ...set.components.ErrorEnvelope,
    description: errorTypesTable(),
  };

  return {
    openapi: '3.1.0',
    info: { title: 'Batch AI-answer monitoring service', version, description: DESCRIPTION },
    servers: [{ url: serverUrl }],
    tags: TAGS,
    paths,
    webhooks,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: set.components,
    },
  };
}
