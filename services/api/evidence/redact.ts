/**
 * The request a web page sent, as the bundle shows it: the `request` lines of
 * the raw evidence with every credential-like query parameter and JSON field
 * replaced (the crawler stores no headers, so no cookie or bearer is there).
 */
const SECRET_NAME =
  /(token|secret|passw(or)?d|session_?id|cookie|authori[sz]ation|signature|credentials?|api_?key)$|^(key|auth|sig|ticket|session)$/i;
export const REMOVED = '[removed]';

interface RequestLine {
  t: number;
  kind: 'request';
  url: string;
  method: string;
  body?: string;
}

/** The request lines of an NDJSON evidence text, credentials removed. */
export function requestsSent(ndjson: string): RequestLine[] {
  const out: RequestLine[] = [];
  for (const line of ndjson.split('\n')) {
    if (!line.includes('"request"')) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    const e = entry as Partial<RequestLine>;
    if (e.kind !== 'request' || typeof e.url !== 'string') continue;
    out.push({
      t: e.t ?? 0,
      kind: 'request',
      url: redactUrl(e.url),
      method: e.method ?? 'GET',
      ...(typeof e.body === 'string' && { body: redactBody(e.body) }),
    });
  }
  return out;
}

export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.username || parsed.password) {
    parsed.username = '';
    parsed.password = '';
  }
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_NAME.test(name)) parsed.searchParams.set(name, REMOVED);
  }
  return parsed.toString();
}

/** A JSON body with credential-like fields removed at any depth; another body as sent. */
export function redactBody(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  return JSON.stringify(redactValue(parsed));
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_NAME.test(k) ? REMOVED : redactValue(v)]),
  );
}
