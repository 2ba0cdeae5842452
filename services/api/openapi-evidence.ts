/** The evidence bundle routes and the public key set in the OpenAPI document (services/api/routes/evidence.ts). */
import { errorResponses, PROTECTED, TASK_ID_REASON } from './openapi-errors.js';
import type { Json, SchemaSet } from './openapi-parts.js';
import { SECURITY, subTaskIdParam, taskIdParam } from './openapi-tasks.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

const TAR = {
  description: 'A tar archive, streamed (Content-Disposition: attachment)',
  content: { 'application/x-tar': { schema: { type: 'string', format: 'binary' } } },
};

export function evidencePaths(set: SchemaSet): Json {
  const notFound = (what: string) =>
    errorResponses(set, ['400', '404', ...PROTECTED], { '400': TASK_ID_REASON, '404': what });
  return {
    [openApiPath(PATHS.SUBTASK_EVIDENCE)]: {
      get: {
        summary: "A sub task's signed evidence bundle",
        description:
          'A tar of the result exactly as its result route serves it (result.json, absolute links), the request as sent with credentials removed (request.json), the raw stream frames (raw-frames.ndjson, web channel), the page and mention screenshots, manifest.json (platform, channel, requested and effective mode, account label, region, proxy exit address, start and end, parser and service version, the SHA-256 of every file) and manifest.jws: the manifest signed with the service Ed25519 key (EdDSA, `kid` in the header; keys at /.well-known/jwks.json). Check it offline with `aimon verify`; see docs/evidence.md. Only the task owner sees it.',
        tags: ['tasks'],
        security: SECURITY,
        parameters: [taskIdParam, subTaskIdParam],
        responses: {
          '200': TAR,
          ...notFound("Unknown sub task, or another user's"),
        },
      },
    },
    [openApiPath(PATHS.TASK_EVIDENCE)]: {
      get: {
        summary: "A whole task's signed evidence bundle",
        description:
          "Every sub task's bundle files in a folder named by its subTaskId, then a top manifest.json listing the SHA-256 of each sub task's manifest, and its manifest.jws. Streamed: memory does not grow with the task's size. Only the task owner sees it.",
        tags: ['tasks'],
        security: SECURITY,
        parameters: [taskIdParam],
        responses: { '200': TAR, ...notFound("Unknown task, or another user's") },
      },
    },
    [openApiPath(PATHS.JWKS)]: {
      get: {
        summary: 'The public keys that verify evidence bundles (JWKS)',
        description:
          'Every Ed25519 key that signed or signs bundles: the active one and the retired ones, so a bundle signed before a key rotation still verifies. Public halves only; no token needed.',
        tags: ['service'],
        responses: {
          '200': {
            description: 'A JSON Web Key Set',
            content: {
              'application/jwk-set+json': {
                schema: {
                  type: 'object',
                  required: ['keys'],
                  properties: { keys: { type: 'array' } },
                },
                example: {
                  keys: [
                    {
                      kty: 'OKP',
                      crv: 'Ed25519',
                      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
                      kid: 'ev-2026-11-27-3a9f0c21b4d7',
                      alg: 'EdDSA',
                      use: 'sig',
                    },
                  ],
                },
              },
            },
          },
          ...errorResponses(set, ['500', '503']),
        },
      },
    },
  };
}
