/**
 * A real webhook receiver on 127.0.0.1 for callback tests. Each path follows
 * its own plan, one step per request ('ok' once the plan is used up), and
 * every request is recorded with its arrival time, headers and raw body.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step = 'ok' | '500' | '404' | 'redirect' | 'slow';

export interface Received {
  path: string;
  at: number;
  headers: Record<string, string>;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  plan(path: string, steps: Step[]): string;
  requestsTo(path: string): Received[];
  close(): Promise<void>;
}

/** `slowMs`: how long a 'slow' step waits before answering (past the read timeout). */
export async function startReceiver(o: { port?: number; slowMs?: number } = {}): Promise<Receiver> {
  const plans = new Map<string, Step[]>();
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        at: Date.now(),
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [
            k,
            Array.isArray(v) ? v.join(',') : (v ?? ''),
          ]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const step = plans.get(path)?.shift() ?? 'ok';
      if (step === 'ok') res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      else if (step === 'redirect') res.writeHead(302, { location: `${path}/moved` }).end();
      else if (step === 'slow')
        setTimeout(() => res.writeHead(200).end('too late'), o.slowMs ?? 1_000);
      else res.writeHead(Number(step)).end(`failing with ${step}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    received,
    plan(path, steps) {
      plans.set(path, [...steps]);
      return url + path;
    },
    requestsTo: (path) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port with nothing listening (yet). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
