/**
 * A real HTTP forward proxy on loopback (npm `proxy`, CONNECT included) whose
 * outgoing connections leave from `localAddress` (127.0.0.2, 127.0.0.3, …):
 * the target sees that address, as a platform sees a regional exit IP.
 * `stop` and `start` again on the same port flip a port's health.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxy } from 'proxy';

export interface ForwardProxy {
  port: number;
  url: string;
  localAddress: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startForwardProxy(localAddress: string): Promise<ForwardProxy> {
  let server: Server;
  let sockets = new Set<Socket>();
  let port = 0;
  const listen = async () => {
    server = createProxy(createServer());
    (server as Server & { localAddress?: string }).localAddress = localAddress;
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
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    start: listen,
  };
}
