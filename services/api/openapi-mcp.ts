/** `POST /mcp` in the OpenAPI document: the MCP endpoint, its tools listed from their one table. */
import { errorResponses, JSON_BODY, PROTECTED } from './openapi-errors.js';
import { example, type Json, type SchemaSet } from './openapi-parts.js';
import { SECURITY } from './openapi-tasks.js';
import { TOOLS } from './mcp/tools.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

const jsonRpc = (description: string, value: unknown): Json => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['jsonrpc'],
        properties: { jsonrpc: { const: '2.0' } },
        additionalProperties: true,
      },
      examples: example(description, value),
    },
  },
});

export function mcpPaths(set: SchemaSet): Json {
  const tools = TOOLS.map((t) => `\`${t.name}\``).join(', ');
  return {
    [openApiPath(PATHS.MCP)]: {
      post: {
        summary: 'MCP (Model Context Protocol) over Streamable HTTP, stateless, JSON answers',
        description: `A JSON-RPC 2.0 message of MCP (initialize, tools/list, tools/call, resources/read …) as the token's user; see docs/agents.md. Send \`Accept: application/json, text/event-stream\`. Tools: ${tools}. Resources: \`aimon://task/{taskId}\`, \`aimon://screenshot/{id}\`. A tool's refusal is a result with \`isError\` naming each field, never an HTTP error.`,
        tags: ['agents'],
        security: SECURITY,
        requestBody: {
          required: true,
          ...jsonRpc('A tool call', {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'task_status', arguments: { taskId: '3f1c…' } },
          }),
        },
        responses: {
          '200': jsonRpc('The JSON-RPC answer', {
            jsonrpc: '2.0',
            id: 1,
            result: {
              content: [{ type: 'text', text: 'task 3f1c…: completed, 2/2 completed' }],
              structuredContent: { status: 'completed' },
            },
          }),
          ...errorResponses(set, [...JSON_BODY, ...PROTECTED]),
        },
      },
    },
  };
}
