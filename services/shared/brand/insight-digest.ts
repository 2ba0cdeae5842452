/**
 * What the insights (insights.ts) read of one answer beyond what the rest of
 * the visibility pass reads, as numbers, computed once when the answer is
 * recorded and stored with it (`insightDigest`), so that summing a task's
 * answers is array indexing instead of a brand key, a URL parse and a string
 * hash per name and reference on every read. One flat array of numbers
 * (compact in memory and in the store), read through `DIGEST`:
 *
 *   [version, competitors, discovered.length, referenceList.length,
 *    n, n × (spelling, key, position, index),
 *    r, r × (reference index, domain, URL)]
 *
 * - `competitors`: the hash of the competitors the answer names (the groups
 *   after the first it names, then its discovered names, joined by new
 *   lines), for a competitor answer (`roleOf`), else 0;
 * - per discovered entry with a merging key (brandKey), the first of each
 *   key only: the hashes of its spelling and key, its position and its index
 *   in `discovered`;
 * - for a competitor answer, per reference retrieved and not cited (a URL
 *   no citation has, with a host; none when there are no more references
 *   than citations, a platform that does not separate them): its index in
 *   `referenceList`, the hashes of its domain and URL.
 * The citations are not in it: the visibility pass looks their URLs up for
 * its own figures and hands the insights their ids. Every hash is hash53.
 * The digest depends on the answer and its stored brand fields alone (its
 * role too: its `mentions` and `discovered`, as the sum reads them). An answer stored without a digest (before it
 * existed), or with one of another version or not matching its lists, gets
 * one made when it is read (`DigestReader`), so old and new answers sum
 * alike. Pure.
 */
import type { Reference } from '../contracts/answer.js';
import type { DiscoveredEntry, Mention } from '../contracts/brand.js';
import { brandKey } from './brand-name.js';
import { domainOf } from './domains.js';
import { hash53 } from './hash-ids.js';

export type InsightDigest = number[];

/** The digest's first number; a digest of another version is read as none. */
export const DIGEST_VERSION = 1;

/** Offsets and sizes of the digest's parts. */
export const DIGEST = {
  COMPETITORS: 1,
  DISCOVERED_LENGTH: 2,
  REFERENCES_LENGTH: 3,
  /** The entries' count, then ENTRY_SIZE numbers each: spelling, key, position, index. */
  ENTRIES: 4,
  ENTRY_SIZE: 4,
  /** After the entries: the retrieved references' count, then RETRIEVED_SIZE numbers each: index, domain, URL. */
  RETRIEVED_SIZE: 3,
} as const;

/** The fields of an answer the digest is made of. */
export interface DigestSource {
  mentions?: readonly Mention[] | null;
  discovered?: readonly DiscoveredEntry[] | null;
  citationList?: readonly Reference[] | null;
  referenceList?: readonly Reference[] | null;
}

/** The competitors an answer names: the groups after the first it names, then its discovered brands. */
export function competitorsOf(s: DigestSource): string[] {
  const names: string[] = [];
  const mentions = s.mentions ?? [];
  for (let i = 1; i < mentions.length; i++) {
    if (mentions[i]!.count > 0) names.push(mentions[i]!.keyword);
  }
  for (const d of s.discovered ?? []) names.push(d.name);
  return names;
}

/**
 * What an answer is to the opportunities: `user` when it names the first
 * group, else `competitor` when it names another group or has a discovered
 * brand (without groups: any discovered brand), else null.
 */
export function roleOf(s: DigestSource): 'user' | 'competitor' | null {
  const mentions = s.mentions;
  if (mentions && mentions.length && mentions[0]!.count > 0) return 'user';
  if (s.discovered && s.discovered.length) return 'competitor';
  for (let i = 1; mentions && i < mentions.length; i++) {
    if (mentions[i]!.count > 0) return 'competitor';
  }
  return null;
}

/** The digest's entries from `from` on hold `key`. */
function hasKey(digest: readonly number[], from: number, key: number): boolean {
  for (let o = from; o < digest.length; o += DIGEST.ENTRY_SIZE)
    if (digest[o + 1] === key) return true;
  return false;
}

/**
 * Makes digests; remembers the hashes of the strings it has read, so one
 * reader used over a task's old answers parses each URL and keys each name
 * once.
 */
export class DigestReader {
  /** Per name, the hashes of its spelling and key (0: no key). */
  private readonly names = new Map<string, [number, number]>();
  /** Per URL, the hashes of its domain (0: no host) and of the URL. */
  private readonly urls = new Map<string, [number, number]>();
  private readonly sets = new Map<string, number>();

  /** The digest of an answer's fields. */
  digest(s: DigestSource): InsightDigest {
    const discovered = s.discovered ?? [];
    const references = s.referenceList ?? [];
    const competitor = roleOf(s) === 'competitor';
    let competitors = 0;
    if (competitor) {
      const set = competitorsOf(s).join('\n');
      competitors = this.sets.get(set) ?? 0;
      if (!competitors) this.sets.set(set, (competitors = hash53(set)));
    }
    const digest = [DIGEST_VERSION, competitors, discovered.length, references.length, 0];
    const keysFrom = digest.length;
    for (let i = 0; i < discovered.length; i++) {
      const d = discovered[i]!;
      const [spelling, key] = this.name(d.name);
      if (!key || hasKey(digest, keysFrom, key)) continue;
      digest.push(spelling, key, d.position, i);
      digest[DIGEST.ENTRIES]!++;
    }
    const retrievedAt = digest.push(0) - 1;
    const citations = s.citationList ?? [];
    if (!competitor || references.length <= citations.length) return digest;
    for (let k = 0; k < references.length; k++) {
      const url = references[k]!.url;
      if (citations.some((c) => c.url === url)) continue;
      const [domain, hash] = this.url(url);
      if (!domain) continue;
      digest.push(k, domain, hash);
      digest[retrievedAt]!++;
    }
    return digest;
  }

  private name(name: string): [number, number] {
    let h = this.names.get(name);
    if (!h) {
      const key = brandKey(name);
      this.names.set(name, (h = [hash53(name), key ? hash53(key) : 0]));
    }
    return h;
  }

  private url(url: string): [number, number] {
    let h = this.urls.get(url);
    if (!h) {
      const domain = domainOf(url);
      this.urls.set(url, (h = [domain === null ? 0 : hash53(domain), hash53(url)]));
    }
    return h;
  }
}

/** The digest to store with a newly recorded answer. */
export function insightDigest(s: DigestSource): InsightDigest {
  return new DigestReader().digest(s);
}

/**
 * `s`'s stored digest when it is of this version and made from lists of the
 * lengths `s` has, else null.
 */
export function storedDigest(
  s: DigestSource & { insightDigest?: InsightDigest | null },
): InsightDigest | null {
  const d = s.insightDigest;
  return d &&
    Array.isArray(d) &&
    d[0] === DIGEST_VERSION &&
    d[DIGEST.DISCOVERED_LENGTH] === (s.discovered?.length ?? 0) &&
    d[DIGEST.REFERENCES_LENGTH] === (s.referenceList?.length ?? 0)
    ? d
    : null;
}
