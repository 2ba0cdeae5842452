/**
 * The one message `POST /mcp` takes: a JSON-RPC 2.0 request, or a
 * notification (no id), of MCP. Checked before the SDK reads it, so a
 * malformed message is the API's 400 naming each field (the SDK would take a
 * message with a broken id for a notification and answer 202), and the
 * OpenAPI document shows this same schema.
 */
import { z } from 'zod';

export const mcpMessageSchema = z
  .object({
    jsonrpc: z.literal('2.0', { error: 'must be "2.0"' }),
    id: z
      .union([z.int(), z.string().min(1)], { error: 'must be an integer or a string' })
      .optional(),
    method: z
      .string({ error: 'is required and must be a string' })
      .min(1, 'must not be empty')
      .meta({
        description: 'initialize, tools/list, tools/call, resources/list, resources/read, …',
      }),
    params: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
  })
  .strict()
  .meta({ id: 'McpMessage' });
