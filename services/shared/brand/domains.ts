/**
 * Domains of brand visibility: the host a URL points to, whether a text is a
 * domain name, and whose domain a cited host is.
 *
 * Hosts are compared in one form: WHATWG host parsing (UTS 46: NFKC-like
 * mapping, lower case, IDNA), shown in Unicode (`阿克米.cn`, not
 * `xn--…`), without a trailing dot and without a leading `www.`.
 */
import { domainToASCII, domainToUnicode } from 'node:url';
import type { DomainTag, KeywordGroup } from '../contracts/brand.js';

/** A top-level label: letters only (any script, `中国`), or an IDNA `xn--` label. */
const TLD = /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/u;
const LABEL = /^[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The common form of a host name; '' when it is not one. */
function canonicalHost(host: string): string {
  const ascii = domainToASCII(host.replace(/\.$/, ''));
  if (!ascii) return '';
  const unicode = domainToUnicode(ascii);
  return unicode.startsWith('www.') ? unicode.slice(4) : unicode;
}

/**
 * The domain that `name` spells, in the common form, or null when it is not a
 * domain name: two labels or more, each of letters, digits and inner hyphens
 * (any script), the last one letters only (a top-level domain: `com`, `cn`,
 * `中国`, `xn--fiqs8s`), no scheme, path, port or space. Digits-only endings
 * (`3.14`, `1.2.3.4`, `v2.0`) are not domains. A brand written like a domain
 * (`Node.js`) counts as one; it only ever matches a host of that name.
 */
export function domainName(name: string): string | null {
  const trimmed = name.trim().replace(/\.$/, '');
  if (!trimmed || /[\s/:?#@\\]/u.test(trimmed)) return null;
  const labels = trimmed.normalize('NFKC').toLowerCase().split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  const host = canonicalHost(trimmed);
  if (!host) return null;
  const asciiLabels = domainToASCII(host).split('.');
  if (asciiLabels.length < 2 || !TLD.test(asciiLabels[asciiLabels.length - 1]!)) return null;
  return host;
}

/**
 * The host of a URL, lower-case, without `www.`; null when it has none
 * (`mailto:`, garbage). A URL without a scheme (`//acme.com/x`, `acme.com/x`)
 * is read as http, as a browser's address bar does.
 */
export function domainOf(url: string): string | null {
  const trimmed = url.trim();
  if (!trimmed) return null;
  let parsed: URL;
  try {
    parsed = new URL(SCHEME.test(trimmed) ? trimmed : `http://${trimmed.replace(/^\/\//, '')}`);
  } catch {
    return null;
  }
  if (!parsed.hostname) return null;
  if (parsed.hostname.startsWith('[')) return parsed.hostname;
  return canonicalHost(parsed.hostname) || null;
}

/** `domain` equals `declared` or is a subdomain of it. */
export function isWithin(domain: string, declared: string): boolean {
  return (
    domain === declared ||
    (domain.length > declared.length &&
      domain.endsWith(declared) &&
      domain.charCodeAt(domain.length - declared.length - 1) === 46) /* '.' */
  );
}

/**
 * `owned` when `domain` is (a subdomain of) a domain of the first group,
 * `competitor` when of another group's domain, else `other`. When several
 * declared domains contain it, the longest (most specific) wins, so a
 * competitor on `shop.acme.com` beats `acme.com`; between equal ones, the
 * earlier group.
 */
export function tagDomain(
  domain: string,
  groups: readonly KeywordGroup[],
): { tag: DomainTag; keyword?: string } {
  const host = canonicalHost(domain) || domain.toLowerCase();
  let best = -1;
  let bestLength = -1;
  groups.forEach((g, i) => {
    for (const d of g.domains) {
      if (d.length > bestLength && isWithin(host, d)) {
        best = i;
        bestLength = d.length;
      }
    }
  });
  if (best < 0) return { tag: 'other' };
  return { tag: best === 0 ? 'owned' : 'competitor', keyword: groups[best]!.keyword };
}
