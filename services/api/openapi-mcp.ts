/** `POST /mcp` in the OpenAPI document: the MCP endpoint, its tools listed from their one table. */
import { errorResponses, JSON_BODY, PROTECTED } from './openapi-errors.js';
import { example, type Json, type SchemaSet } from './openapi-parts.js';
import { SECURITY } from './openapi-tasks.js';
import { TOOLS } from './mcp/tools.js';
import { mcpMessageSchema } from './mcp/message.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

const jsonRpcId = { anyOf: [{ type: 'integer' }, { type: 'string', minLength: 1 }] };

/** Its answer: a result, or a JSON-RPC error (an unknown method, bad params, a malformed message). */
const jsonRpcAnswer: Json = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { anyOf: [jsonRpcId, { type: 'null' }] },
    result: { type: 'object' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
    },
  },
};

const content = (schema: Json, description: string, value: unknown): Json => ({
  'application/json': { schema, examples: example(description, value) },
});

export function mcpPaths(set: SchemaSet): Json {
  const tools = TOOLS.map((t) => `\`${t.name}\``).join(', ');
  const errors = errorResponses(set, [...JSON_BODY, ...PROTECTED]);
  const envelope400 = errors['400'] as { content: Record<string, { schema: Json }> };
  return {
    [openApiPath(PATHS.MCP)]: {
      post: {
        summary: 'MCP (Model Context Protocol) over Streamable HTTP, stateless, JSON answers',
        description: `A JSON-RPC 2.0 message of MCP (initialize, tools/list, tools/call, resources/read …) as the token's user; see docs/agents.md. Answers are always JSON, whatever the Accept header. Tools: ${tools}. Resources: \`aimon://task/{taskId}\`, \`aimon://screenshot/{id}\`. A tool's refusal is a result with \`isError\` naming each field, never an HTTP error.`,
        tags: ['agents'],
        security: SECURITY,
        requestBody: {
          required: true,
          content: content(set.json(mcpMessageSchema, 'input'), 'A tool call', {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'task_status', arguments: { taskId: '3f1c…' } },
          }),
        },
        responses: {
          '200': {
            description:
              'The JSON-RPC answer: a result, or an error for an unknown method or bad params',
            content: content(jsonRpcAnswer, 'A tool result', {
              jsonrpc: '2.0',
              id: 1,
              result: {
                content: [{ type: 'text', text: 'task 3f1c…: completed, 2/2 completed' }],
                structuredContent: { status: 'completed' },
              },
            }),
          },
          '202': { description: 'A notification (a message without id) was accepted; no body' },
          ...errors,
          '400': {
            description: `${String((errors['400'] as { description: string }).description)}; or a message that is not JSON-RPC 2.0 (a JSON-RPC error)`,
            content: {
              'application/json': {
                schema: {
                  anyOf: [envelope400.content['application/json']!.schema, jsonRpcAnswer],
                },
                examples: example('Not a JSON-RPC message', {
                  jsonrpc: '2.0',
                  error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' },
                  id: null,
                }),
              },
            },
          },
        },
      },
    },
  };
}
