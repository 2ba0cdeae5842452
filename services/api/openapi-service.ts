/**
 * The service's own routes in the OpenAPI document: health, this document
 * and its page, the token exchange, the platform catalogue, screenshots and
 * the public city lookup.
 */
import { cityInfoQuerySchema } from '../shared/requests/city-query.js';
import { platformsQuerySchema } from '../shared/requests/task-queries.js';
import {
  cityInfoDataSchema,
  envelopeOf,
  healthDataSchema,
  platformsDataSchema,
  tokenDataSchema,
  tokenRequestSchema,
} from '../shared/contracts/http.js';
import { errorResponses, JSON_BODY, PROTECTED } from './openapi-errors.js';
import { cityInfoExample, envelope, platformsExample } from './openapi-examples.js';
import { example, type Json, type SchemaSet } from './openapi-parts.js';
import { SECURITY } from './openapi-tasks.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

const PER_ADDRESS = 'Rate limited per client address; see the Retry-After header';

export function servicePaths(set: SchemaSet, version: string): Json {
  const errors = errorResponses.bind(null, set);
  return {
    [openApiPath(PATHS.HEALTH)]: {
      get: {
        summary: 'Liveness of this api node',
        tags: ['service'],
        responses: {
          '200': {
            description: 'Up',
            ...set.content(
              envelopeOf(healthDataSchema),
              example('Up', envelope({ status: 'ok', version })),
            ),
          },
          ...errors(['500']),
        },
      },
    },
    [openApiPath(PATHS.OPENAPI)]: {
      get: {
        summary: 'This document',
        tags: ['service'],
        responses: {
          '200': {
            description: 'OpenAPI 3.1 document',
            content: {
              'application/json': {
                schema: { type: 'object' },
                examples: example('Its first lines', {
                  openapi: '3.1.0',
                  info: { title: 'Batch AI-answer monitoring service', version },
                }),
              },
            },
          },
          ...errors(['500']),
        },
      },
    },
    [openApiPath(PATHS.DOCS)]: {
      get: {
        summary: 'Interactive documentation of this document (Swagger UI, served offline)',
        tags: ['service'],
        responses: {
          '200': {
            description: 'HTML page; its files are served under /api/business/docs/assets/',
            content: {
              'text/html': {
                schema: { type: 'string' },
                examples: example('The page', '<!doctype html>\n<html lang="en">…</html>\n'),
              },
            },
          },
          ...errors(['500']),
        },
      },
    },
    [openApiPath(PATHS.AUTH_TOKEN)]: {
      post: {
        summary: 'Exchange an API key for an access token',
        description:
          'Public; limited per client address. Send the token as `Authorization: Bearer <accessToken>`; when it expires (expiresIn seconds), exchange the key again.',
        tags: ['auth'],
        requestBody: {
          required: true,
          ...set.content(
            tokenRequestSchema,
            example('An API key', { apiKey: 'amk_Jz1kXw8H3pQe5vR2tY7uNc4bLm6sDf0a' }),
            'input',
          ),
        },
        responses: {
          '200': {
            description: 'Token issued',
            ...set.content(
              envelopeOf(tokenDataSchema),
              example(
                'Issued',
                envelope(
                  {
                    accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl',
                    tokenType: 'Bearer',
                    expiresIn: 7200,
                  },
                  'token issued',
                ),
              ),
            ),
          },
          ...errors([...JSON_BODY, '401', '429', '500', '503'], {
            '401': {
              text: 'Unknown or revoked API key',
              example: { message: 'invalid or revoked API key' },
            },
            '429': PER_ADDRESS,
          }),
        },
      },
    },
    [openApiPath(PATHS.PLATFORMS)]: {
      get: {
        summary: 'The platform catalogue: names, aliases, modes and availability',
        description:
          'Each channel carries the verdict a submission to it gets now: available, refused (what is missing) or unknown. Ask with regionCode for work in a region.',
        tags: ['platforms'],
        security: SECURITY,
        parameters: set.queryParams(platformsQuerySchema),
        responses: {
          '200': {
            description: 'Catalogue',
            ...set.content(
              envelopeOf(platformsDataSchema),
              example('One platform', envelope(platformsExample)),
            ),
          },
          ...errors(['400', ...PROTECTED], {
            '400': {
              text: 'regionCode is not 2 to 12 digits, or is given twice',
              example: {
                message:
                  'invalid request: regionCode: must be an administrative division code (2 to 12 digits)',
                errors: [
                  {
                    field: 'regionCode',
                    message: 'must be an administrative division code (2 to 12 digits)',
                  },
                ],
              },
            },
          }),
        },
      },
    },
    [openApiPath(PATHS.SCREENSHOT)]: {
      get: {
        summary: 'A stored screenshot (the pageScreenshot URL of a sub task)',
        description: 'No token: the random 128-bit id is the capability.',
        tags: ['tasks'],
        parameters: [
          {
            name: 'file',
            in: 'path',
            required: true,
            schema: { type: 'string' },
            description: 'The 32 hex digits of the screenshot id + .png; any other name is a 404',
            example: `${'9c'.repeat(16)}.png`,
          },
        ],
        responses: {
          '200': {
            description: 'PNG image',
            content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
          },
          ...errors(['404', '500'], {
            '404': {
              text: 'Unknown screenshot (or not a screenshot name)',
              example: { message: 'screenshot not found' },
            },
          }),
        },
      },
    },
    [openApiPath(PATHS.CITY_INFO)]: {
      get: {
        summary: 'Proxy ports and their cities; submit one of their regionCode values',
        description: 'Public: no token. Ordered by regionCode, then port.',
        tags: ['proxies'],
        parameters: set.queryParams(cityInfoQuerySchema),
        responses: {
          '200': {
            description: 'Proxy ports',
            ...set.content(
              envelopeOf(cityInfoDataSchema),
              example('Shanghai', envelope(cityInfoExample)),
            ),
          },
          ...errors(['400', '429', '500', '503'], {
            '400': {
              text: 'deduplicate is not true, false, 1 or 0, or is given twice',
              example: {
                message: 'invalid request: deduplicate: deduplicate must be true or false (1 or 0)',
                errors: [
                  { field: 'deduplicate', message: 'deduplicate must be true or false (1 or 0)' },
                ],
              },
            },
            '429': PER_ADDRESS,
            '503': 'The proxy registry is unreachable',
          }),
        },
      },
    },
  };
}
