/**
 * Serves answer pages on loopback for the browser to screenshot. Each page is
 * reachable under a random id only until it is disposed.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class RenderServer {
  private readonly pages = new Map<string, string>();
  private server: Server | undefined;
  private base = '';

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const id = /^\/render\/([0-9a-f]{32})$/.exec(req.url ?? '')?.[1];
      const html = id ? this.pages.get(id) : undefined;
      if (!html) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Publishes a page; returns its URL and a function that takes it down. */
  publish(html: string): { url: string; dispose: () => void } {
    const id = randomBytes(16).toString('hex');
    this.pages.set(id, html);
    return { url: `${this.base}/render/${id}`, dispose: () => this.pages.delete(id) };
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
