/**
 * Which requests a page of a driver may make: only to the origins the driver
 * declares. Everything else (analytics, third-party widgets, whatever a page
 * or Chromium itself adds) is refused at the browser, so it never leaves
 * through the customer's regional proxy. Pure.
 *
 * A pattern is an origin, `scheme://host[:port]` (http or https), or one whose
 * host starts with `*.`, meaning any subdomain of the rest but not the rest
 * itself: `https://*.deepseek.com` allows `https://cdn.deepseek.com` and
 * `https://a.b.deepseek.com`, not `https://deepseek.com` (declare that too).
 * Ports are compared exactly, with the scheme's default filled in. WebSocket
 * URLs match as their HTTP counterparts (`wss:` as `https:`).
 */
import { AppError } from '../services/shared/errors.js';

/** true: the page may reach this URL. */
export type OriginAllowList = (url: string) => boolean;

interface OriginRule {
  scheme: 'http:' | 'https:';
  /** The host itself, or the suffix after `*.` when `anySubdomain`. */
  host: string;
  anySubdomain: boolean;
  port: string;
}

/** Schemes whose URLs never reach the network: the page makes them itself. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const HTTP_OF: Readonly<Record<string, OriginRule['scheme']>> = {
  'http:': 'http:',
  'https:': 'https:',
  'ws:': 'http:',
  'wss:': 'https:',
};
const DEFAULT_PORT: Readonly<Record<OriginRule['scheme'], string>> = {
  'http:': '80',
  'https:': '443',
};

const badPattern = (pattern: string, why: string) =>
  new AppError(`origin pattern ${JSON.stringify(pattern)}: ${why}`, 500, 'CONFIG_INVALID');

export function parseOriginPattern(pattern: string): OriginRule {
  const anySubdomain = /^[a-z]+:\/\/\*\./i.test(pattern);
  // `*` is not a valid host character: parse a stand-in label and put the wildcard back.
  const parsable = anySubdomain ? pattern.replace('*.', 'wildcard.') : pattern;
  let url: URL;
  try {
    url = new URL(parsable);
  } catch {
    throw badPattern(pattern, 'not a URL');
  }
  const scheme = HTTP_OF[url.protocol];
  if (!scheme || url.protocol.startsWith('ws'))
    throw badPattern(pattern, 'the scheme must be http or https');
  if (url.username || url.password) throw badPattern(pattern, 'credentials are not allowed');
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(pattern))
    throw badPattern(pattern, 'an origin has no path, query or fragment');
  if (url.hostname.includes('*')) throw badPattern(pattern, 'only a leading `*.` is allowed');
  const host = anySubdomain ? url.hostname.slice('wildcard.'.length) : url.hostname;
  if (anySubdomain && !host.includes('.'))
    throw badPattern(pattern, '`*.` must stand before a domain of at least two labels');
  return { scheme, host, anySubdomain, port: url.port || DEFAULT_PORT[scheme] };
}

function matches(rule: OriginRule, scheme: string, host: string, port: string): boolean {
  if (rule.scheme !== scheme || rule.port !== port) return false;
  return rule.anySubdomain ? host.endsWith(`.${rule.host}`) : host === rule.host;
}

/** Builds the decision from a driver's declared patterns; a bad pattern throws at once. */
export function originAllowList(patterns: readonly string[]): OriginAllowList {
  const rules = patterns.map(parseOriginPattern);
  return (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return false;
    }
    if (LOCAL_SCHEMES.has(url.protocol)) return true;
    const scheme = HTTP_OF[url.protocol];
    if (!scheme || url.username || url.password) return false;
    const port = url.port || DEFAULT_PORT[scheme];
    return rules.some((r) => matches(r, scheme, url.hostname, port));
  };
}
