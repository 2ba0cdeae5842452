/**
 * Parses a crawler node's proxy ports from the operator's JSON
 * (CRAWLER_PROXIES, or the file CRAWLER_PROXIES_FILE names): an array of
 *   { "port": 8001, "url": "http://user:pass@proxy-sh:8001",
 *     "regionCode": "310100" | ["310000", "310100"],
 *     "province": "上海市", "city": "上海市", "outIp": "203.0.113.7" }
 * Province and city are optional: without them the names come from the
 * administrative-division data, on the crawler node. Pure: problems are
 * returned, not thrown, so the config module can report them with the rest.
 */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

export interface ProxyPortSetting {
  port: number;
  url: string;
  regionCode: string[];
  province?: string;
  city?: string;
  outIp: string;
}

const code = z.string().regex(/^\d{6}$/, 'region codes have 6 digits, e.g. "310100"');

const entrySchema = z.object({
  port: z.number().int().min(1).max(65535),
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// proxy URL' }),
  regionCode: z.union([code, z.array(code).min(1)]).transform((c) => (Array.isArray(c) ? c : [c])),
  province: z.string().trim().min(1).optional(),
  city: z.string().trim().min(1).optional(),
  outIp: z.string().refine((ip) => ipaddr.isValid(ip), 'must be an IPv4 or IPv6 address'),
});

export function parseProxyPorts(
  field: string,
  text: string | undefined,
): { ports: ProxyPortSetting[]; problems: { field: string; message: string }[] } {
  if (text === undefined) return { ports: [], problems: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ports: [], problems: [{ field, message: `is not JSON: ${(err as Error).message}` }] };
  }
  const parsed = z.array(entrySchema).safeParse(json);
  if (!parsed.success) {
    return {
      ports: [],
      problems: parsed.error.issues.map((i) => ({
        field,
        message: i.path.length ? `entry ${i.path.join('.')}: ${i.message}` : i.message,
      })),
    };
  }
  const seen = new Set<string>();
  const problems: { field: string; message: string }[] = [];
  for (const p of parsed.data) {
    const key = proxyKey(p.url);
    if (seen.has(key)) problems.push({ field, message: `proxy ${key} is listed twice` });
    seen.add(key);
  }
  return { ports: problems.length ? [] : parsed.data, problems };
}

/** `host:port` of a proxy URL: how the cluster names a port (never with its credentials). */
export function proxyKey(url: string): string {
  const u = new URL(url);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${u.hostname}:${port}`;
}
