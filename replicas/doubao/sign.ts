/**
 * The replica's stand-in for Doubao's `a_bogus` query signature: computed by
 * the page's own script (in its SharedWorker) over the query and the body
 * with a key only the served script holds, and checked by the server, so a
 * request replayed without the page, or with its body changed, is refused.
 * The real `a_bogus` is an obfuscated VM; what matters here is the shape:
 * the page computes it, the server checks it, nobody else can.
 */
import { createHash } from 'node:crypto';

/** The query without `a_bogus`, in the order sent: what the signature covers. */
export function signedQuery(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('a_bogus');
  return params.toString();
}

export function aBogus(key: string, query: string, body: string): string {
  return createHash('sha256').update(`${key}\n${query}\n${body}`).digest('base64url');
}

/** The same computation in the worker's own JavaScript (crypto.subtle). */
export const SIGN_SOURCE = String.raw`
async function aBogus(key, query, body) {
  const bytes = new TextEncoder().encode(key + '\n' + query + '\n' + body);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let bin = '';
  for (const b of digest) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}`;
