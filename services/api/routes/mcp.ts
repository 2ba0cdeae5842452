/**
 * `POST /mcp`: the MCP tools over Streamable HTTP (services/api/mcp/), behind
 * the same bearer tokens as the REST API. Stateless: each request builds the
 * caller's server (for a `tools/call`, with only the tool it calls) and its
 * transport and answers in JSON, so any api node serves any request and
 * nothing is kept between them. GET (a server-sent stream)
 * and DELETE (a session's end) have nothing to serve here: 405. The
 * transport is the SDK's web-standard one, answered through Koa: the Node
 * one converts through an adapter that replaces the process's global
 * Request and Response and answers later.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { NodeState } from '../../shared/crawler-states.js';
import { PATHS } from '../../shared/contracts/http-paths.js';
import type { Backend } from '../backend.js';
import { baseUrl } from '../base-url.js';
import { jsonBody } from '../middleware/body.js';
import type { StatusCache } from '../status-cache.js';
import { statusBody } from '../status-read.js';
import type { StatusData } from '../../shared/contracts/http.js';
import type { EvidenceReader } from '../raw-evidence.js';
import { mcpServer, type ScreenshotLoader } from '../mcp/server.js';
import { mcpMessageSchema } from '../mcp/message.js';
import { AppError } from '../../shared/errors.js';
import { zodProblems } from '../../shared/validation.js';
import type { Caller } from '../mcp/tool-kit.js';

export interface McpRouteDeps {
  backend: Backend;
  evidence: EvidenceReader;
  screenshot: ScreenshotLoader;
  crawlerStates: () => Promise<NodeState[]>;
  statusCache: StatusCache;
  maxBodyBytes: number;
  publicBaseUrl: string | undefined;
}

export function mcpRoutes(d: McpRouteDeps): Router {
  const router = new Router();
  router.post(PATHS.MCP, jsonBody(d.maxBodyBytes), async (ctx) => {
    const message = mcpMessageSchema.safeParse(ctx.state.body);
    if (!message.success) throw AppError.invalid(zodProblems(message.error));
    const { method, params } = message.data;
    const calledTool =
      method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
    const server = mcpServer(callerOf(ctx, d), d.screenshot, calledTool);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      // The body is already read and checked (jsonBody); the transport takes it parsed.
      // Answers are always JSON (enableJsonResponse), so a client need not say it accepts an
      // event stream too, as the transport would otherwise demand (406).
      const headers = new Headers(ctx.headers as Record<string, string>);
      headers.set('accept', 'application/json, text/event-stream');
      const request = new Request(`http://${ctx.host}${ctx.url}`, { method: 'POST', headers });
      const response = await transport.handleRequest(request, { parsedBody: ctx.state.body });
      ctx.status = response.status;
      response.headers.forEach((value, name) => ctx.set(name, value));
      ctx.body = Buffer.from(await response.arrayBuffer());
    } finally {
      await server.close();
    }
  });
  return router;
}

function callerOf(ctx: Context, d: McpRouteDeps): Caller {
  const userId = ctx.state.userId as number;
  return {
    userId,
    backend: d.backend,
    evidence: d.evidence,
    base: baseUrl(ctx, d.publicBaseUrl),
    crawlerStates: d.crawlerStates,
    status: async (taskId) =>
      (
        JSON.parse(String(await statusBody(d.statusCache, d.backend, userId, taskId))) as {
          data: StatusData;
        }
      ).data,
    isOperator: async () =>
      (await d.backend.call<{ role: string }>('users.profile', { userId })).role === 'operator',
  };
}
