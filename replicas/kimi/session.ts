/**
 * The replica's accounts and request signing. A session is a JWT as Kimi
 * issues it (claims `app_id: "kimi"`, `typ: "access"`, `sub`, `device_id`,
 * `ssid`, `exp`; kept in the `kimi-auth` cookie and localStorage
 * `access_token`). The page signs every chat call: `x-msh-signature` =
 * HMAC-SHA256 over `device id \n timestamp \n sha256(body)` keyed with the
 * session id, so a call replayed without the page's script is refused.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface Claims {
  app_id: 'kimi';
  typ: 'access';
  sub: string;
  device_id: string;
  ssid: string;
  exp: number;
}

const SECRET = randomUUID();
const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 15);
const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');
const macOf = (data: string) => createHmac('sha256', SECRET).update(data).digest('base64url');

export function issueToken(user: string, lifetimeS = 3600): string {
  const claims: Claims = {
    app_id: 'kimi',
    typ: 'access',
    sub: user,
    device_id: String(BigInt('0x' + digest(`device ${user}`))),
    ssid: String(BigInt('0x' + digest(`session ${user} ${Date.now()}`))),
    exp: Math.floor(Date.now() / 1000) + lifetimeS,
  };
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(claims));
  return `${head}.${body}.${macOf(`${head}.${body}`)}`;
}

/** The claims of a token this replica issued (expired ones too), else undefined. */
export function claimsOf(token: string | undefined): Claims | undefined {
  const [head, body, mac] = (token ?? '').split('.');
  if (!head || !body || !mac || macOf(`${head}.${body}`) !== mac) return undefined;
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims;
}

export const isExpired = (c: Claims) => c.exp * 1000 <= Date.now();

export function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/** What the page's script computes; the server recomputes it over the bytes it received. */
export function signatureOf(c: Claims, timestamp: string, body: Uint8Array): string {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  return createHmac('sha256', c.ssid)
    .update(`${c.device_id}\n${timestamp}\n${bodyHash}`)
    .digest('hex');
}

/** Why a chat call's signing headers are wrong, or undefined when they are right. */
export function signingFault(
  req: IncomingMessage,
  c: Claims,
  body: Uint8Array,
): string | undefined {
  const h = req.headers;
  if (h['x-msh-device-id'] !== c.device_id) return 'x-msh-device-id does not match the session';
  if (h['x-msh-session-id'] !== c.ssid) return 'x-msh-session-id does not match the session';
  const ts = String(h['x-msh-timestamp'] ?? '');
  if (!/^\d+$/.test(ts) || Math.abs(Date.now() - Number(ts)) > 5 * 60_000)
    return 'x-msh-timestamp missing or stale';
  const given = Buffer.from(String(h['x-msh-signature'] ?? ''), 'utf8');
  const want = Buffer.from(signatureOf(c, ts, body), 'utf8');
  if (given.length !== want.length || !timingSafeEqual(given, want))
    return 'x-msh-signature does not match the request';
  return undefined;
}
