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
 */
import type { Reference } from '../contracts/answer.js';
import type {
  CitationOpportunity,
  DiscoveredBrand,
  DiscoveredEntry,
  KeywordGroup,
  Mention,
  SourcePage,
} from '../contracts/brand.js';
import { brandKey } from './brand-name.js';
import { domainOf, tagDomain } from './domains.js';
import type { Place } from './place.js';

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
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Counts of strings, read most counted first (ties by code point order). */
class Counts {
  readonly map = new Map<string, number>();
  add(value: string, n = 1): void {
    this.map.set(value, (this.map.get(value) ?? 0) + n);
  }
  top(limit: number): string[] {
    return [...this.map]
      .sort(([a, x], [b, y]) => y - x || byName(a, b))
      .slice(0, limit)
      .map(([v]) => v);
  }
}

interface BrandTally {
  spellings: Counts;
  answers: number;
  positionSum: number;
  best: number;
  perBucket: Map<object, number>;
  example: { subTaskId: string; platform: string; prompt: string; position: number };
}

interface DomainTally {
  answers: number;
  retrievedAnswers: number;
  competitors: Counts;
  pages: Map<string, { title: string; n: number }>;
  retrieved: Map<string, { title: string; n: number }>;
  prompts: Counts;
  buckets: Set<object>;
}

function pagesOf(pages: Map<string, { title: string; n: number }>): SourcePage[] {
  return [...pages]
    .sort(([a, x], [b, y]) => y.n - x.n || byName(a, b))
    .slice(0, LIST_LIMIT)
    .map(([url, { title }]) => ({ url, title }));
}

export class Insights {
  private readonly brands = new Map<string, BrandTally>();
  private readonly domains = new Map<string, DomainTally>();
  private readonly domainOfUrl = new Map<string, string | null>();
  /** Per domain, the answers naming the first group that cite it (the contrast). */
  private readonly userCited = new Map<string, number>();
  private readonly keys = new Map<string, string>();
  private answers = 0;

  constructor(private readonly groups: readonly KeywordGroup[]) {}

  /** One completed sub task, counted under `bucket` (its place, resolved by `result`). */
  add(s: InsightInput, bucket: object): void {
    this.answers++;
    const discovered = s.discovered ?? [];
    if (discovered.length) this.addDiscovered(s, discovered, bucket);
    const mentions = s.mentions ?? [];
    const citations = s.citationList ?? [];
    if ((mentions[0]?.count ?? 0) > 0) {
      // The first group is named: only the contrast counts, once per domain.
      const domains = new Set<string>();
      for (const c of citations) {
        const domain = this.domainOf(c.url);
        if (domain) domains.add(domain);
      }
      for (const d of domains) this.userCited.set(d, (this.userCited.get(d) ?? 0) + 1);
      return;
    }
    const competitors: string[] = [];
    for (let i = 1; i < mentions.length; i++) {
      if (mentions[i]!.count > 0) competitors.push(mentions[i]!.keyword);
    }
    for (const d of discovered) competitors.push(d.name);
    if (!competitors.length) return;
    const prompt = s.prompt ?? '';
    const cited = new Map<string, Reference[]>();
    const citedUrls = new Set<string>();
    for (const c of citations) {
      citedUrls.add(c.url);
      const domain = this.domainOf(c.url);
      if (!domain) continue;
      const list = cited.get(domain);
      if (list) list.push(c);
      else cited.set(domain, [c]);
    }
    for (const [domain, refs] of cited) {
      const t = this.tally(domain);
      t.answers++;
      this.seenIn(t, competitors, bucket, prompt);
      for (const r of refs) addPage(t.pages, r);
    }
    const references = s.referenceList ?? [];
    if (references.length <= citedUrls.size) return;
    const retrieved = new Map<string, Reference[]>();
    for (const r of references) {
      if (citedUrls.has(r.url)) continue;
      const domain = this.domainOf(r.url);
      if (!domain) continue;
      const list = retrieved.get(domain);
      if (list) list.push(r);
      else retrieved.set(domain, [r]);
    }
    for (const [domain, refs] of retrieved) {
      const t = this.tally(domain);
      t.retrievedAnswers++;
      if (!cited.has(domain)) this.seenIn(t, competitors, bucket, prompt);
      for (const r of refs) addPage(t.retrieved, r);
    }
  }

  private addDiscovered(s: InsightInput, discovered: DiscoveredEntry[], bucket: object): void {
    const example = {
      subTaskId: String(s.subTaskId ?? s._id ?? ''),
      platform: s.platform,
      prompt: s.prompt ?? '',
    };
    const named = new Set<string>();
    for (const d of discovered) {
      let key = this.keys.get(d.name);
      if (key === undefined) this.keys.set(d.name, (key = brandKey(d.name)));
      if (!key || named.has(key)) continue;
      named.add(key);
      this.addBrand(key, d, bucket, example);
    }
  }

  private addBrand(
    key: string,
    d: DiscoveredEntry,
    bucket: object,
    example: { subTaskId: string; platform: string; prompt: string },
  ): void {
    let t = this.brands.get(key);
    if (!t) {
      t = {
        spellings: new Counts(),
        answers: 0,
        positionSum: 0,
        best: d.position,
        perBucket: new Map(),
        example: { ...example, position: d.position },
      };
      this.brands.set(key, t);
    }
    t.spellings.add(d.name);
    t.answers++;
    t.positionSum += d.position;
    if (d.position < t.best) t.best = d.position;
    t.perBucket.set(bucket, (t.perBucket.get(bucket) ?? 0) + 1);
    const e = t.example;
    if (d.position < e.position || (d.position === e.position && example.subTaskId < e.subTaskId)) {
      t.example = { ...example, position: d.position };
    }
  }

  private seenIn(
    t: DomainTally,
    competitors: readonly string[],
    bucket: object,
    prompt: string,
  ): void {
    for (const name of competitors) t.competitors.add(name);
    if (prompt) t.prompts.add(prompt);
    t.buckets.add(bucket);
  }

  private domainOf(url: string): string | null {
    let domain = this.domainOfUrl.get(url);
    if (domain === undefined) this.domainOfUrl.set(url, (domain = domainOf(url)));
    return domain;
  }

  private tally(domain: string): DomainTally {
    let t = this.domains.get(domain);
    if (!t) {
      t = {
        answers: 0,
        retrievedAnswers: 0,
        competitors: new Counts(),
        pages: new Map(),
        retrieved: new Map(),
        prompts: new Counts(),
        buckets: new Set(),
      };
      this.domains.set(domain, t);
    }
    return t;
  }

  /**
   * The summed insights; `places`: every bucket `add` was given, with its
   * place and completed answers, in the visibility's row order.
   */
  result(places: readonly { bucket: object; place: Place; answers: number }[]): {
    discovered: DiscoveredBrand[];
    opportunities: CitationOpportunity[];
  } {
    const discovered = [...this.brands.values()]
      .map((t): DiscoveredBrand => {
        const { subTaskId, platform, prompt } = t.example;
        return {
          name: t.spellings.top(1)[0]!,
          answers: t.answers,
          share: this.answers ? t.answers / this.answers : 0,
          averagePosition: t.positionSum / t.answers,
          bestPosition: t.best,
          places: places
            .filter((p) => t.perBucket.has(p.bucket))
            .map((p) => {
              const answers = t.perBucket.get(p.bucket)!;
              return { ...p.place, answers, share: p.answers ? answers / p.answers : 0 };
            }),
          example: { subTaskId, platform, prompt },
        };
      })
      .sort(
        (a, b) =>
          b.answers - a.answers || a.averagePosition - b.averagePosition || byName(a.name, b.name),
      )
      .slice(0, DISCOVERED_LIMIT);
    const opportunities = [...this.domains]
      .filter(([, t]) => t.answers > 0 || t.retrievedAnswers > 0)
      .sort(
        ([a, x], [b, y]) =>
          y.answers - x.answers || y.retrievedAnswers - x.retrievedAnswers || byName(a, b),
      )
      .slice(0, OPPORTUNITY_LIMIT)
      .map(([domain, t]): CitationOpportunity => ({
        domain,
        ...tagDomain(domain, this.groups),
        answers: t.answers,
        userAnswers: this.userCited.get(domain) ?? 0,
        retrievedAnswers: t.retrievedAnswers,
        competitors: t.competitors.top(LIST_LIMIT),
        pages: pagesOf(t.pages),
        retrieved: pagesOf(t.retrieved),
        prompts: t.prompts.top(LIST_LIMIT),
        places: places.filter((p) => t.buckets.has(p.bucket)).map((p) => p.place),
      }));
    return { discovered, opportunities };
  }
}

function addPage(pages: Map<string, { title: string; n: number }>, r: Reference): void {
  const page = pages.get(r.url);
  if (page) page.n++;
  else pages.set(r.url, { title: r.title, n: 1 });
}
