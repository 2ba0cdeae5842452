/**
 * One MCP server for one caller: the tools of tools.ts and two resource
 * templates, task results (`aimon://task/{taskId}`) and screenshots
 * (`aimon://screenshot/{id}`). Built per request on the HTTP transport
 * (stateless: the bearer token says who calls), so what does not depend on
 * the caller is built once here, and a `tools/call` registers only the tool
 * it calls.
 */
import {
  McpServer,
  ResourceTemplate,
  type ToolCallback,
} from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describeError } from '../../shared/errors.js';
import { VERSION } from '../../shared/version.js';
import type { ListData } from '../../shared/contracts/http.js';
import { taskResultView } from '../result-views.js';
import type { Caller, Tool } from './tool-kit.js';
import { checkRole, TOOLS } from './tools.js';

export const SERVER_NAME = 'aimon';

/**
 * The validator the SDK would build for every server (an Ajv instance, which
 * costs most of a request's time to construct); its schemas are the same for
 * every caller, so one serves them all.
 */
const validator = new AjvJsonSchemaValidator();

/** What the screenshot resource reads: PNG bytes by id (the id is the capability, as on REST). */
export type ScreenshotLoader = (id: string) => Promise<Buffer | undefined>;

/** Each tool's registration as the SDK takes it, by name: the same for every caller. */
const TOOL_CONFIGS = new Map(TOOLS.map((t) => [t.name, { tool: t, config: toolConfig(t) }]));

/**
 * The server one request needs. With `calledTool` (the request is a
 * `tools/call` of that name), only that tool is registered: registering all
 * of them is most of a small call's own cost. An unknown name registers none,
 * and the SDK answers that the tool is not found, as it would with all of
 * them. The capabilities are declared up front, so the answer to
 * `initialize` and the handlers do not depend on what is registered.
 */
export function mcpServer(
  caller: Caller,
  screenshot: ScreenshotLoader,
  calledTool?: string,
): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: VERSION },
    {
      jsonSchemaValidator: validator,
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Ask AI platforms a batch of prompts and read what they answered: list_platforms, submit_batch, task_status (waitSeconds to wait), task_results (paged), subtask_result, task_visibility.',
    },
  );
  if (calledTool === undefined) {
    for (const { tool, config } of TOOL_CONFIGS.values()) {
      server.registerTool(tool.name, config, toolHandler(tool, caller));
    }
    registerResources(server, caller, screenshot);
  } else {
    const called = TOOL_CONFIGS.get(calledTool);
    if (called) server.registerTool(calledTool, called.config, toolHandler(called.tool, caller));
  }
  return server;
}

function registerResources(server: McpServer, caller: Caller, screenshot: ScreenshotLoader): void {
  server.registerResource(
    'task',
    new ResourceTemplate('aimon://task/{taskId}', {
      list: async () => {
        const { tasks } = await caller.backend.call<ListData>('tasks.list', {
          userId: caller.userId,
          query: { size: '20' },
        });
        return {
          resources: tasks.map((t) => ({
            uri: `aimon://task/${t.taskId}`,
            name: t.name ?? t.taskId,
            mimeType: 'application/json',
          })),
        };
      },
    }),
    {
      title: 'Task result',
      description: "A task's full result as JSON",
      mimeType: 'application/json',
    },
    async (uri, { taskId }) => {
      const data = await taskResultView(caller, caller.userId, String(taskId));
      return {
        contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(data) }],
      };
    },
  );

  server.registerResource(
    'screenshot',
    new ResourceTemplate('aimon://screenshot/{id}', { list: undefined }),
    {
      title: 'Screenshot',
      description: 'A page or mention screenshot (PNG)',
      mimeType: 'image/png',
    },
    async (uri, { id }) => {
      const png = /^[0-9a-f]{32}$/.test(String(id)) ? await screenshot(String(id)) : undefined;
      if (!png) throw new Error(`no screenshot ${String(id)}`);
      return {
        contents: [{ uri: uri.href, mimeType: 'image/png', blob: png.toString('base64') }],
      };
    },
  );
}

function toolConfig(t: Tool) {
  return {
    title: t.title,
    description: t.description,
    inputSchema: t.input,
    annotations: {
      title: t.title,
      readOnlyHint: t.readOnly,
      destructiveHint: false,
      idempotentHint: t.idempotent,
      openWorldHint: t.name === 'submit_batch',
    },
  };
}

function toolHandler(t: Tool, caller: Caller): ToolCallback<z.ZodObject> {
  return async (args: unknown): Promise<CallToolResult> => {
    try {
      await checkRole(t, caller);
      const out = await t.run(args as never, caller);
      return {
        content: [{ type: 'text', text: out.summary }],
        structuredContent: out.data,
      };
    } catch (err) {
      return { isError: true, content: [{ type: 'text', text: errorText(err) }] };
    }
  };
}

/** The error as a client reads it on REST: its message, then each problem with its field. */
function errorText(err: unknown): string {
  const d = describeError(err);
  const problems = (d.data as { errors?: { field: string; message: string }[] } | undefined)
    ?.errors;
  const lines = (problems ?? []).map((p) => `- ${p.field}: ${p.message}`);
  return [`${d.status} ${d.type}: ${d.message}`, ...lines].join('\n');
}
