/**
 * `aimon mcp`: the service's MCP tools over stdio, for desktop clients that
 * start a local command. It relays each request to the service's `/mcp` with
 * the stored login (a fresh token when one expires), so stdio and HTTP clients
 * see the same tools, answered by the same code.
 */
import { Command } from 'commander';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';
import { VERSION } from '../../../services/shared/version.js';
import type { Cli } from '../context.js';

export function mcpCommand(cli: Cli): Command {
  return new Command('mcp')
    .description('serve the MCP tools over stdio (for desktop AI clients), as your login')
    .action(
      cli.action(async () => {
        const api = await cli.client();
        await api.accessToken(); // a bad login fails here, before any client connects
        const endpoint = api.baseUrl + PATHS.MCP;
        const upstream = new Client({ name: 'aimon-stdio', version: VERSION });
        // The transport only ever asks for the endpoint it was given.
        await upstream.connect(
          new StreamableHTTPClientTransport(new URL(endpoint), {
            fetch: (_url, init) => api.authed(PATHS.MCP, init),
          }),
        );
        const relay = new Server(
          { name: 'aimon', version: VERSION },
          {
            capabilities: { tools: {}, resources: {} },
            instructions: upstream.getInstructions(),
          },
        );
        relay.setRequestHandler(ListToolsRequestSchema, (r) => upstream.listTools(r.params));
        relay.setRequestHandler(CallToolRequestSchema, (r) => upstream.callTool(r.params));
        relay.setRequestHandler(ListResourcesRequestSchema, (r) =>
          upstream.listResources(r.params),
        );
        relay.setRequestHandler(ListResourceTemplatesRequestSchema, (r) =>
          upstream.listResourceTemplates(r.params),
        );
        relay.setRequestHandler(ReadResourceRequestSchema, (r) => upstream.readResource(r.params));
        const closed = new Promise<void>((resolve) => (relay.onclose = resolve));
        await relay.connect(new StdioServerTransport());
        await closed;
        await upstream.close();
      }),
    );
}
