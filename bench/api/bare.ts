/**
 * The yardstick of the status figures: a bare Koa handler that serialises the
 * very body the status endpoint answered, with nothing else in the way.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { ok } from '../../services/api/envelope.js';

export const BARE_PATH = '/bare';

export async function startBare(data: unknown): Promise<{ origin: string; server: Server }> {
  const app = new Koa();
  app.use((ctx) => {
    if (ctx.path === BARE_PATH) ok(ctx, data);
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, server };
}

export async function stopBare(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
