/**
 * The two insights of a task's (or a monitor run's) answers, summed in the
 * visibility pass (visibility.ts feeds every completed sub task to `add`):
 * - discovered brands: the brands the answers recommend that no group
 *   watches (discovered.ts per answer), merged by brandKey, with how many
 *   answers name each, their share, the mean and best position, where, and
 *   one example sub task;
 * - citation opportunities: the domains cited in answers that name a
 *   competitor (a watched group other than the first, or a discovered brand)
 *   and do not name the first group, ranked by those answers; each with its
 *   pages, prompts, places, the competitors named, how often answers naming
 *   the first group cite it (the contrast), and the pages of it those answers
 *   retrieved without citing (referenceList beyond citationList; a platform
 *   that does not separate them lists the same pages in both).
 * Every order is by count, then by name, so the result does not depend on the
 * order the sub tasks are read in. Pure.
 *
 * Cost (docs/benchmarks.md, `bench:brand` line 5): the citations come as the
 * URL ids visibilityOf looked up for its own figures (url-index.ts); every
 * other name, domain and URL comes as a number stored with the answer when it
 * was recorded (insight-digest.ts), made a dense id once per pass
 * (hash-ids.ts), so a discovered entry or a reference costs array look-ups,
 * never a brand key, a URL parse or a string hash. Answers are told apart by
 * a counter stamped on each tally. Only counts are kept per answer; the lists
 * of the top domains (pages, prompts, competitors, places) are read from the
 * competitor answers when `result` is asked for, names and prompts as ids
 * ranked once. An answer stored without a digest gets one made as it is read
 * (each name keyed and each URL parsed once per pass).
 */
import type {
  CitationOpportunity,
  DiscoveredBrand,
  DiscoveredEntry,
  DiscoveredPlace,
  KeywordGroup,
  Mention,
  SourcePage,
} from '../contracts/brand.js';
import type { Reference } from '../contracts/answer.js';
import { domainOf, tagDomain } from './domains.js';
import { HashIds } from './hash-ids.js';
import {
  competitorsOf,
  DIGEST,
  DigestReader,
  roleOf,
  storedDigest,
  type InsightDigest,
} from './insight-digest.js';
import type { Place } from './place.js';
import type { UrlIndex } from './url-index.js';

export const DISCOVERED_LIMIT = 50;
export const OPPORTUNITY_LIMIT = 30;
const LIST_LIMIT = 10;

/** What the insights read of one completed sub task. */
export interface InsightInput {
  /** The sub task's id (a result's `subTaskId`, a stored document's `_id`). */
  subTaskId?: string;
  _id?: unknown;
  platform: string;
  prompt?: string | null;
  mentions?: Mention[] | null;
  discovered?: DiscoveredEntry[] | null;
  referenceList?: Reference[] | null;
  citationList?: Reference[] | null;
  /** Stored when the answer was recorded (insight-digest.ts); absent on older answers. */
  insightDigest?: InsightDigest | null;
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const idOf = (s: InsightInput): string => String(s.subTaskId ?? s._id ?? '');

/** A brand (a merging key) as summed so far. */
interface BrandTally {
  /** Its spellings' ids. */
  spellings: number[];
  answers: number;
  positionSum: number;
  /** The best position, and the answer giving it (ties: the lowest id). */
  best: number;
  example: InsightInput;
  exampleId: string;
}

/** A completed answer naming a competitor and not the first group. */
interface CompetitorAnswer {
  s: InsightInput;
  bucket: number;
  digest: InsightDigest;
  /**
   * Where its references start in `Insights.refDomains` (the domain id of
   * each citation, -1 without a host, then of each reference retrieved and
   * not cited) and in `Insights.citedUrls` (the URL id of each citation).
   */
  from: number;
  citedFrom: number;
  cited: number;
  /** Where its retrieved references start in `digest`, and how many. */
  retrievedAt: number;
  retrieved: number;
}

/** Per-domain counts, by domain id (UrlIndex), grown as domains appear. */
class DomainCounts {
  readonly answers: number[] = [];
  readonly userAnswers: number[] = [];
  readonly retrievedAnswers: number[] = [];
  /** The answers that last counted it as cited, as the contrast, as retrieved. */
  readonly citedStamp: number[] = [];
  readonly userStamp: number[] = [];
  readonly retrievedStamp: number[] = [];

  /** Makes room up to domain id `id`. */
  reach(id: number): void {
    for (let d = this.answers.length; d <= id; d++) {
      this.answers.push(0);
      this.userAnswers.push(0);
      this.retrievedAnswers.push(0);
      this.citedStamp.push(0);
      this.userStamp.push(0);
      this.retrievedStamp.push(0);
    }
  }
}

export class Insights {
  /** Makes the digest of an answer stored without one. */
  private readonly reader = new DigestReader();
  /** Spellings by the hash of their name; spellings of one key share a brand. */
  private readonly spellingIds = new HashIds();
  private readonly spellingBrand: number[] = [];
  private readonly spellingName: string[] = [];
  private readonly written: number[] = [];
  private readonly brandIds = new HashIds();
  private readonly brands: BrandTally[] = [];
  /** Per bucket index, per brand id: answers naming it. */
  private readonly perBucket: number[][] = [];
  private readonly domains = new DomainCounts();
  /** Retrieved domains: per hash id, the domain id (UrlIndex). */
  private readonly retrievedDomainIds = new HashIds();
  private readonly retrievedDomain: number[] = [];
  private readonly competitorAnswers: CompetitorAnswer[] = [];
  /** The competitor answers' references (CompetitorAnswer.from, citedFrom). */
  private readonly refDomains: number[] = [];
  private readonly citedUrls: number[] = [];
  private answers = 0;

  constructor(
    private readonly groups: readonly KeywordGroup[],
    private readonly urls: UrlIndex,
  ) {}

  /**
   * One completed sub task, counted under bucket index `bucket`; `cited`: the
   * URL id of each of its citations (`urls.id`), in order, as visibilityOf
   * looked them up. `cited` is read now and not kept.
   */
  add(s: InsightInput, bucket: number, cited: readonly number[]): void {
    const answer = ++this.answers;
    const digest = storedDigest(s) ?? this.reader.digest(s);
    const entries = digest[DIGEST.ENTRIES]!;
    if (entries) this.addDiscovered(s, digest, entries, bucket);
    const { domainOfUrl } = this.urls;
    const counts = this.domains;
    const role = roleOf(s);
    if (role === 'user') {
      // The first group is named: only the contrast counts, once per domain.
      for (let k = 0; k < cited.length; k++) {
        const d = domainOfUrl[cited[k]!]!;
        if (d < 0) continue;
        if (d >= counts.answers.length) counts.reach(d);
        if (counts.userStamp[d] !== answer) {
          counts.userStamp[d] = answer;
          counts.userAnswers[d]!++;
        }
      }
      return;
    }
    if (role !== 'competitor') return;
    const { refDomains, citedUrls } = this;
    const retrievedAt = DIGEST.ENTRIES + 1 + entries * DIGEST.ENTRY_SIZE;
    const retrieved = digest[retrievedAt]!;
    this.competitorAnswers.push({
      s,
      bucket,
      digest,
      from: refDomains.length,
      citedFrom: citedUrls.length,
      cited: cited.length,
      retrievedAt: retrievedAt + 1,
      retrieved,
    });
    for (let k = 0; k < cited.length; k++) {
      const u = cited[k]!;
      const d = domainOfUrl[u]!;
      citedUrls.push(u);
      refDomains.push(d);
      if (d < 0) continue;
      if (d >= counts.answers.length) counts.reach(d);
      if (counts.citedStamp[d] !== answer) {
        counts.citedStamp[d] = answer;
        counts.answers[d]!++;
      }
    }
    for (let j = 0, o = retrievedAt + 1; j < retrieved; j++, o += DIGEST.RETRIEVED_SIZE) {
      const d = this.retrievedDomainOf(digest[o + 1]!, s.referenceList![digest[o]!]!.url);
      refDomains.push(d);
      if (counts.retrievedStamp[d] !== answer) {
        counts.retrievedStamp[d] = answer;
        counts.retrievedAnswers[d]!++;
      }
    }
  }

  /** The digest's `entries` discovered entries of `s` (one per key). */
  private addDiscovered(
    s: InsightInput,
    digest: InsightDigest,
    entries: number,
    bucket: number,
  ): void {
    const counts = (this.perBucket[bucket] ??= []);
    const end = DIGEST.ENTRIES + 1 + entries * DIGEST.ENTRY_SIZE;
    /** The answer's id, read once it decides an example. */
    let id: string | undefined;
    for (let o = DIGEST.ENTRIES + 1; o < end; o += DIGEST.ENTRY_SIZE) {
      const spelling = this.spellingIds.id(digest[o]!);
      const position = digest[o + 2]!;
      const b =
        spelling < this.written.length
          ? this.spellingBrand[spelling]!
          : this.newSpelling(s, digest[o + 1]!, s.discovered![digest[o + 3]!]!.name, position);
      this.written[spelling]!++;
      counts[b] = (counts[b] ?? 0) + 1;
      const t = this.brands[b]!;
      t.answers++;
      t.positionSum += position;
      if (position < t.best) {
        t.best = position;
        t.example = s;
        t.exampleId = id ??= idOf(s);
      } else if (position === t.best && t.example !== s && (id ??= idOf(s)) < t.exampleId) {
        t.example = s;
        t.exampleId = id;
      }
    }
  }

  /** A spelling seen first (the next spelling id), with its key's brand (made on first sight); the brand's id. */
  private newSpelling(s: InsightInput, key: number, name: string, position: number): number {
    const b = this.brandIds.id(key);
    if (b === this.brands.length) {
      this.brands.push({
        spellings: [],
        answers: 0,
        positionSum: 0,
        best: position,
        example: s,
        exampleId: idOf(s),
      });
    }
    this.brands[b]!.spellings.push(this.written.length);
    this.spellingBrand.push(b);
    this.spellingName.push(name);
    this.written.push(0);
    return b;
  }

  /** The domain id (UrlIndex) of a retrieved reference's domain hash `hash`, its URL `url`. */
  private retrievedDomainOf(hash: number, url: string): number {
    const id = this.retrievedDomainIds.id(hash);
    if (id < this.retrievedDomain.length) return this.retrievedDomain[id]!;
    const d = this.urls.domainId(domainOf(url)!);
    this.domains.reach(d);
    this.retrievedDomain.push(d);
    return d;
  }

  /**
   * The summed insights; `places`: every bucket `add` was given (by its
   * index), with its place and completed answers, in the visibility's row
   * order.
   */
  result(places: readonly { bucket: number; place: Place; answers: number }[]): {
    discovered: DiscoveredBrand[];
    opportunities: CitationOpportunity[];
  } {
    const discovered = this.brands
      .map((t, b): DiscoveredBrand => {
        let most = t.spellings[0]!;
        for (const sp of t.spellings) {
          const n = this.written[sp]!;
          const m = this.written[most]!;
          if (n > m || (n === m && byName(this.spellingName[sp]!, this.spellingName[most]!) < 0))
            most = sp;
        }
        return {
          name: this.spellingName[most]!,
          answers: t.answers,
          share: this.answers ? t.answers / this.answers : 0,
          averagePosition: t.positionSum / t.answers,
          bestPosition: t.best,
          places: places
            .filter((p) => this.perBucket[p.bucket]?.[b])
            .map((p) => {
              const answers = this.perBucket[p.bucket]![b]!;
              return placeWith(p.place, answers, p.answers ? answers / p.answers : 0);
            }),
          example: {
            subTaskId: idOf(t.example),
            platform: t.example.platform,
            prompt: t.example.prompt ?? '',
          },
        };
      })
      .sort(
        (a, b) =>
          b.answers - a.answers || a.averagePosition - b.averagePosition || byName(a.name, b.name),
      )
      .slice(0, DISCOVERED_LIMIT);
    return { discovered, opportunities: this.opportunities(places) };
  }

  private opportunities(
    places: readonly { bucket: number; place: Place; answers: number }[],
  ): CitationOpportunity[] {
    const { answers, userAnswers, retrievedAnswers } = this.domains;
    const domainNames = this.urls.domains;
    const top: number[] = [];
    answers.forEach((n, d) => {
      if (n > 0 || retrievedAnswers[d]! > 0) top.push(d);
    });
    top.sort(
      (x, y) =>
        answers[y]! - answers[x]! ||
        retrievedAnswers[y]! - retrievedAnswers[x]! ||
        byName(domainNames[x]!, domainNames[y]!),
    );
    top.length = Math.min(top.length, OPPORTUNITY_LIMIT);
    /** Per domain id + 1, its rank among the top ones; -1: not among them (nor a domain: id -1). */
    const slotOf = new Int32Array(answers.length + 1).fill(-1);
    top.forEach((d, slot) => (slotOf[d + 1] = slot));
    const { refDomains, citedUrls } = this;
    // The answers are read by the best-ranked top domain they list, then in
    // input order (as they were before the digest), so a page keeps the
    // title of its first listing in that order; each once, however many top
    // domains it lists.
    const byRank = top.map((): CompetitorAnswer[] => []);
    for (const a of this.competitorAnswers) {
      let best = top.length;
      for (let k = a.from, end = a.from + a.cited + a.retrieved; k < end; k++) {
        const slot = slotOf[refDomains[k]! + 1]!;
        if (slot >= 0 && slot < best) best = slot;
      }
      if (best < top.length) byRank[best]!.push(a);
    }
    const buckets = places.reduce((n, p) => Math.max(n, p.bucket + 1), 0);
    const tallied = top.map(() => ({
      /** Per competitor set and per prompt, the answers listing the domain. */
      sets: [] as number[],
      prompts: [] as number[],
      /** Per bucket index, 1 when an answer of it lists the domain. */
      buckets: new Uint8Array(buckets),
      /** Its pages' ids in `cited` and `retrieved`. */
      cited: [] as number[],
      retrieved: [] as number[],
      /** The answer of the sweep that last counted it. */
      stamp: 0,
    }));
    const cited = new PageCounts();
    const retrieved = new PageCounts();
    // Answers repeat the same competitors: a domain counts sets, then names.
    const setIds = new HashIds();
    const setNames: number[][] = [];
    const names = new Interned();
    const prompts = new Interned();
    let sweep = 0;
    for (const list of byRank) {
      for (const a of list) {
        sweep++;
        const { s, digest } = a;
        const set = setIds.id(digest[DIGEST.COMPETITORS]!);
        if (set === setNames.length) {
          const joined = competitorsOf(s).join('\n');
          setNames.push(joined ? joined.split('\n').map((name) => names.id(name)) : []);
        }
        const prompt = s.prompt ? prompts.id(s.prompt) : -1;
        const citedEnd = a.from + a.cited;
        for (let k = a.from, end = citedEnd + a.retrieved; k < end; k++) {
          const slot = slotOf[refDomains[k]! + 1]!;
          if (slot < 0) continue;
          const counts = tallied[slot]!;
          if (counts.stamp !== sweep) {
            counts.stamp = sweep;
            counts.sets[set] = (counts.sets[set] ?? 0) + 1;
            if (prompt >= 0) counts.prompts[prompt] = (counts.prompts[prompt] ?? 0) + 1;
            counts.buckets[a.bucket] = 1;
          }
          if (k < citedEnd) {
            const i = k - a.from;
            const page = cited.add(citedUrls[a.citedFrom + i]!, s.citationList![i]!);
            if (page >= 0) counts.cited.push(page);
          } else {
            const o = a.retrievedAt + (k - citedEnd) * DIGEST.RETRIEVED_SIZE;
            const page = retrieved.add(digest[o + 2]!, s.referenceList![digest[o]!]!, true);
            if (page >= 0) counts.retrieved.push(page);
          }
        }
      }
    }
    return top.map((d, slot): CitationOpportunity => {
      const counts = tallied[slot]!;
      const named: number[] = [];
      counts.sets.forEach((n, set) => {
        for (const name of setNames[set]!) named[name] = (named[name] ?? 0) + n;
      });
      const domain = domainNames[d]!;
      return {
        domain,
        ...tagDomain(domain, this.groups),
        answers: answers[d]!,
        userAnswers: userAnswers[d]!,
        retrievedAnswers: retrievedAnswers[d]!,
        competitors: names.top(named, LIST_LIMIT),
        pages: cited.top(counts.cited),
        retrieved: retrieved.top(counts.retrieved),
        prompts: prompts.top(counts.prompts, LIST_LIMIT),
        places: places.filter((p) => counts.buckets[p.bucket]).map((p) => p.place),
      };
    });
  }
}

/** Listings of pages: per page, its first listing and how often it was listed. */
class PageCounts {
  private readonly ids = new HashIds();
  private readonly byUrlId: number[] = [];
  private readonly first: Reference[] = [];
  private readonly n: number[] = [];

  /**
   * A listing of `r`, its page known by `id`: a URL id (UrlIndex), or with
   * `hashed` a URL hash. The page's id when it is new, else -1.
   */
  add(id: number, r: Reference, hashed = false): number {
    let page: number;
    if (hashed) page = this.ids.id(id);
    else page = this.byUrlId[id] ?? (this.byUrlId[id] = this.first.length);
    if (page < this.first.length) {
      this.n[page]!++;
      return -1;
    }
    this.first.push(r);
    this.n.push(1);
    return page;
  }

  /** The most listed of `pages`, ties by URL, at most LIST_LIMIT, each with its first title. */
  top(pages: readonly number[]): SourcePage[] {
    return [...pages]
      .sort((x, y) => this.n[y]! - this.n[x]! || byName(this.first[x]!.url, this.first[y]!.url))
      .slice(0, LIST_LIMIT)
      .map((p) => ({ url: this.first[p]!.url, title: this.first[p]!.title }));
  }
}

/**
 * `{ ...place, answers, share }`, written out: a spread over places of
 * several shapes takes the engine's slow path, and there is one per brand
 * and place.
 */
function placeWith(place: Place, answers: number, share: number): DiscoveredPlace {
  const placed: Place & Partial<DiscoveredPlace> = { platform: place.platform };
  if (place.channel !== undefined) placed.channel = place.channel;
  if (place.mode !== undefined) placed.mode = place.mode;
  placed.answers = answers;
  placed.share = share;
  return placed as DiscoveredPlace;
}

/** Strings as ids 0, 1, …, and the most counted of them by a count per id. */
class Interned {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.values.push(value) - 1));
    return id;
  }
  /** Per id, its rank in code point order (made once all ids are given, by the first `top`). */
  private rank: Int32Array | null = null;
  /** The `limit` most counted (`counts` per id, holes: none), most first, ties by code point order. */
  top(counts: readonly (number | undefined)[], limit: number): string[] {
    if (!this.rank || this.rank.length !== this.values.length) {
      const rank = new Int32Array(this.values.length);
      this.values
        .map((_, id) => id)
        .sort((a, b) => byName(this.values[a]!, this.values[b]!))
        .forEach((id, r) => (rank[id] = r));
      this.rank = rank;
    }
    const rank = this.rank;
    const counted: number[] = [];
    counts.forEach((n, id) => {
      if (n) counted.push(id);
    });
    return counted
      .sort((a, b) => counts[b]! - counts[a]! || rank[a]! - rank[b]!)
      .slice(0, limit)
      .map((id) => this.values[id]!);
  }
}
