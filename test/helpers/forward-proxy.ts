/**
 * A real HTTP forward proxy on loopback (npm `proxy`, CONNECT included) whose
 * outgoing connections leave from `localAddress` (127.0.0.2, 127.0.0.3, …):
 * the target sees that address, as a platform sees a regional exit IP.
 * `stop` and `start` again on the same port flip a port's health.
 * Every request it is asked to carry is recorded with its target, so a test
 * can prove what left through the region (`host:port`, CONNECT and plain alike).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxy } from 'proxy';

export interface ProxiedRequest {
  method: string;
  /** `host:port` of the target, as the client named it. */
  target: string;
}

export interface ForwardProxy {
  port: number;
  url: string;
  localAddress: string;
  /** Every request carried since the start (or the last `clearRequests`), oldest first. */
  requests: ProxiedRequest[];
  clearRequests(): void;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** The `host:port` a proxy request names: CONNECT's authority or the absolute URL's. */
export function proxyTarget(req: IncomingMessage): string {
  const raw = req.url ?? '';
  if (req.method === 'CONNECT') return raw.toLowerCase();
  try {
    const url = new URL(raw);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return `${url.hostname}:${port}`;
  } catch {
    return raw;
  }
}

export async function startForwardProxy(localAddress: string): Promise<ForwardProxy> {
  let server: Server;
  let sockets = new Set<Socket>();
  let port = 0;
  const requests: ProxiedRequest[] = [];
  const listen = async () => {
    const proxy = createProxy(createServer());
    proxy.localAddress = localAddress;
    // The library asks this hook about every request, plain and CONNECT, before carrying it.
    proxy.authenticate = (req) => {
      requests.push({ method: req.method ?? '', target: proxyTarget(req) });
      return true;
    };
    server = proxy;
    sockets = new Set();
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  await listen();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    localAddress,
    requests,
    clearRequests: () => void requests.splice(0),
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    start: listen,
  };
}
