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
 *   after the first it names, then its discovered names, joined by new lines);
 * - per discovered entry with a merging key (brandKey), the first of each
 *   key only: the hashes of its spelling and key, its position and its index
 *   in `discovered`;
 * - per reference retrieved and not cited (a URL no citation has, with a
 *   host; none when there are no more references than citations, a platform
 *   that does not separate them): its index in `referenceList`, the hashes
 *   of its domain and URL.
 * The citations are not in it: the visibility pass looks their URLs up for
 * its own figures and hands the insights their ids. Every hash is hash53.
 * The digest depends on the answer and its stored brand fields alone;
 * whether the answer names the first group or a competitor is read from its
 * `mentions` when it is summed. An answer stored without a digest (before it
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
    const citations = s.citationList ?? [];
    const references = s.referenceList ?? [];
    const set = competitorsOf(s).join('\n');
    let competitors = this.sets.get(set);
    if (competitors === undefined) this.sets.set(set, (competitors = hash53(set)));
    const digest = [DIGEST_VERSION, competitors, discovered.length, references.length, 0];
    const keys = new Set<number>();
    discovered.forEach((d, i) => {
      const [spelling, key] = this.name(d.name);
      if (!key || keys.has(key)) return;
      keys.add(key);
      digest.push(spelling, key, d.position, i);
      digest[DIGEST.ENTRIES]!++;
    });
    const retrievedAt = digest.push(0) - 1;
    if (references.length <= citations.length) return digest;
    const cited = new Set(citations.map((c) => c.url));
    references.forEach((r, k) => {
      if (cited.has(r.url)) return;
      const [domain, url] = this.url(r.url);
      if (!domain) return;
      digest.push(k, domain, url);
      digest[retrievedAt]!++;
    });
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
