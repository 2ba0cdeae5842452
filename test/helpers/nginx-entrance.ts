/**
 * A loopback stand-in for the compose entrance: a forwarding proxy that
 * rewrites each request's headers as the `proxy_set_header` lines of
 * deploy/nginx.conf do, with nginx's own meaning of each variable, and passes
 * it on to one upstream. No nginx runs here; the header rewrite is what the
 * links an api node builds depend on.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `proxy_set_header Name value;` lines, in order. */
export function proxySetHeaders(conf: string): [name: string, value: string][] {
  return [...conf.matchAll(/^\s*proxy_set_header\s+(\S+)\s+(.+?)\s*;/gm)].map((m) => [
    m[1]!,
    m[2]!,
  ]);
}

/** nginx's value of `$name` for a request that reached it on `serverPort`. */
function variable(name: string, req: IncomingMessage, serverPort: number): string {
  const remote = req.socket.remoteAddress ?? '';
  const forwardedFor = req.headers['x-forwarded-for'];
  switch (name) {
    // The request's host name, lower case and without its port.
    case 'host':
      return (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    case 'scheme':
      return 'http';
    case 'remote_addr':
      return remote;
    case 'server_port':
      return String(serverPort);
    case 'proxy_add_x_forwarded_for':
      return forwardedFor ? `${String(forwardedFor)}, ${remote}` : remote;
  }
  const header = /^http_(\w+)$/.exec(name)?.[1];
  if (header === undefined) throw new Error(`the stand-in does not know nginx's $${name}`);
  return String(req.headers[header.replace(/_/g, '-')] ?? '');
}

export interface Entrance {
  url: string;
  close(): Promise<void>;
}

export async function startEntrance(conf: string, upstreamPort: number): Promise<Entrance> {
  const rules = proxySetHeaders(conf);
  const server = createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    // nginx sends Host: <upstream name> unless a rule sets it; here the upstream is loopback.
    const headers: Record<string, string | string[] | undefined> = {
      ...req.headers,
      host: `127.0.0.1:${upstreamPort}`,
    };
    for (const [name, value] of rules) {
      headers[name.toLowerCase()] = value.replace(/\$(\w+)/g, (_, v: string) =>
        variable(v, req, port),
      );
    }
    const upstream = request(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
