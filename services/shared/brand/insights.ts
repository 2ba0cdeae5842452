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
 * Cost (docs/benchmarks.md, `bench:brand` line 5): the pass shares what
 * visibilityOf has already read. Citations come as the URL ids visibilityOf
 * looked up (url-index.ts), so a cited domain is an array index, not a parse
 * or a hash; a brand name is hashed once per answer naming it; answers are
 * told apart by a counter stamped on each tally, not by per-answer sets. Only
 * counts are kept per answer; the lists of the top domains (pages, prompts,
 * competitors, places) are read from the competitor answers they keep when
 * `result` is asked for.
 */
import type {
  CitationOpportunity,
  DiscoveredBrand,
  DiscoveredEntry,
  KeywordGroup,
  Mention,
  SourcePage,
} from '../contracts/brand.js';
import type { Reference } from '../contracts/answer.js';
import { brandKey } from './brand-name.js';
import { tagDomain } from './domains.js';
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
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const idOf = (s: InsightInput): string => String(s.subTaskId ?? s._id ?? '');

/** One way a brand is written, and how many answers wrote it so. */
interface Spelling {
  name: string;
  written: number;
  tally: BrandTally;
}

interface BrandTally {
  spellings: Spelling[];
  answers: number;
  positionSum: number;
  best: number;
  /** Answers naming it per bucket index. */
  perBucket: number[];
  /** The answer that last counted it (answers are numbered by `add`). */
  stamp: number;
  example: InsightInput;
  exampleId: string;
  examplePosition: number;
}

/** A completed answer naming a competitor and not the first group. */
interface CompetitorAnswer {
  s: InsightInput;
  bucket: number;
  /** The URL id of each citation, in citationList order. */
  cited: number[];
  /** Pairs (URL id, referenceList index) of the references not cited. */
  retrieved: number[];
  /** Filled by `result` for the answers of the top domains: the ids of its competitors' set and prompt. */
  competitorSet?: number;
  promptId?: number;
}

interface DomainTally {
  domain: number;
  answers: number;
  userAnswers: number;
  retrievedAnswers: number;
  /** The answers that last counted it as cited, as the contrast, as retrieved. */
  citedStamp: number;
  userStamp: number;
  retrievedStamp: number;
  /** The competitor answers citing or retrieving it, in input order. */
  seenIn: CompetitorAnswer[];
}

/** Pages of a domain: per URL id, its first title and how often it was listed. */
type Pages = Map<number, { url: string; title: string; n: number }>;

function pagesOf(pages: Pages): SourcePage[] {
  return [...pages.values()]
    .sort((x, y) => y.n - x.n || byName(x.url, y.url))
    .slice(0, LIST_LIMIT)
    .map(({ url, title }) => ({ url, title }));
}

function addPage(pages: Pages, id: number, r: Reference): void {
  const page = pages.get(id);
  if (page) page.n++;
  else pages.set(id, { url: r.url, title: r.title, n: 1 });
}

export class Insights {
  /** Spellings as written (null: no key, not a name); spellings of one key share a tally. */
  private readonly byName = new Map<string, Spelling | null>();
  private readonly byKey = new Map<string, BrandTally>();
  /** Per domain id. */
  private readonly domainTallies: (DomainTally | undefined)[] = [];
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
    const discovered = s.discovered;
    if (discovered && discovered.length) this.addDiscovered(s, discovered, bucket, answer);
    const mentions = s.mentions;
    const { domainOfUrl } = this.urls;
    if (mentions && mentions.length && mentions[0]!.count > 0) {
      // The first group is named: only the contrast counts, once per domain.
      for (const u of cited) {
        const d = domainOfUrl[u]!;
        if (d < 0) continue;
        const t = this.tally(d);
        if (t.userStamp !== answer) {
          t.userStamp = answer;
          t.userAnswers++;
        }
      }
      return;
    }
    let competitor = discovered !== null && discovered !== undefined && discovered.length > 0;
    for (let i = 1; !competitor && mentions && i < mentions.length; i++) {
      competitor = mentions[i]!.count > 0;
    }
    if (!competitor) return;
    const seen: CompetitorAnswer = { s, bucket, cited: cited.slice(), retrieved: [] };
    for (const u of cited) {
      const d = domainOfUrl[u]!;
      if (d < 0) continue;
      const t = this.tally(d);
      if (t.citedStamp !== answer) {
        t.citedStamp = answer;
        t.answers++;
        t.seenIn.push(seen);
      }
    }
    const references = s.referenceList;
    // No more references than citations: nothing retrieved was left uncited
    // (a platform that does not separate them), and no reference is looked up.
    if (!references || references.length <= cited.length) return;
    for (let k = 0; k < references.length; k++) {
      const u = this.urls.id(references[k]!.url);
      if (cited.includes(u)) continue;
      const d = domainOfUrl[u]!;
      if (d < 0) continue;
      seen.retrieved.push(u, k);
      const t = this.tally(d);
      if (t.retrievedStamp !== answer) {
        t.retrievedStamp = answer;
        t.retrievedAnswers++;
        if (t.citedStamp !== answer) t.seenIn.push(seen);
      }
    }
  }

  private addDiscovered(
    s: InsightInput,
    discovered: readonly DiscoveredEntry[],
    bucket: number,
    answer: number,
  ): void {
    for (const d of discovered) {
      let spelling = this.byName.get(d.name);
      if (spelling === undefined) {
        spelling = this.spellingOf(d.name, s, d.position);
        this.byName.set(d.name, spelling);
      }
      if (spelling === null) continue;
      const t = spelling.tally;
      if (t.stamp === answer) continue;
      t.stamp = answer;
      spelling.written++;
      t.answers++;
      t.positionSum += d.position;
      if (d.position < t.best) t.best = d.position;
      t.perBucket[bucket] = (t.perBucket[bucket] ?? 0) + 1;
      if (d.position < t.examplePosition) {
        t.example = s;
        t.exampleId = idOf(s);
        t.examplePosition = d.position;
      } else if (d.position === t.examplePosition && t.example !== s) {
        const id = idOf(s);
        if (id < t.exampleId) {
          t.example = s;
          t.exampleId = id;
        }
      }
    }
  }

  /** `name` as a spelling of its key's tally (made on first sight), or null when it spells no key. */
  private spellingOf(name: string, s: InsightInput, position: number): Spelling | null {
    const key = brandKey(name);
    if (!key) return null;
    let t = this.byKey.get(key);
    if (!t) {
      t = {
        spellings: [],
        answers: 0,
        positionSum: 0,
        best: position,
        perBucket: [],
        stamp: 0,
        example: s,
        exampleId: idOf(s),
        examplePosition: position,
      };
      this.byKey.set(key, t);
    }
    const spelling: Spelling = { name, written: 0, tally: t };
    t.spellings.push(spelling);
    return spelling;
  }

  private tally(domain: number): DomainTally {
    let t = this.domainTallies[domain];
    if (!t) {
      t = {
        domain,
        answers: 0,
        userAnswers: 0,
        retrievedAnswers: 0,
        citedStamp: 0,
        userStamp: 0,
        retrievedStamp: 0,
        seenIn: [],
      };
      this.domainTallies[domain] = t;
    }
    return t;
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
    const discovered = [...this.byKey.values()]
      .map((t): DiscoveredBrand => {
        let most = t.spellings[0]!;
        for (const sp of t.spellings) {
          if (
            sp.written > most.written ||
            (sp.written === most.written && byName(sp.name, most.name) < 0)
          )
            most = sp;
        }
        return {
          name: most.name,
          answers: t.answers,
          share: this.answers ? t.answers / this.answers : 0,
          averagePosition: t.positionSum / t.answers,
          bestPosition: t.best,
          places: places
            .filter((p) => t.perBucket[p.bucket])
            .map((p) => {
              const answers = t.perBucket[p.bucket]!;
              return { ...p.place, answers, share: p.answers ? answers / p.answers : 0 };
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
    const domains = this.urls.domains;
    const top = this.domainTallies
      .filter((t): t is DomainTally => !!t && (t.answers > 0 || t.retrievedAnswers > 0))
      .sort(
        (x, y) =>
          y.answers - x.answers ||
          y.retrievedAnswers - x.retrievedAnswers ||
          byName(domains[x.domain]!, domains[y.domain]!),
      )
      .slice(0, OPPORTUNITY_LIMIT);
    // Each answer of a top domain is read once, however many top domains it
    // cites: its pages go to their domains, its competitors become the id of
    // their set (answers repeat sets, so a domain counts sets, then names),
    // its prompt an id.
    const slot = new Map(top.map((t, i) => [t.domain, i]));
    const pages = top.map(() => ({ cited: new Map() as Pages, retrieved: new Map() as Pages }));
    const sets = new Interned();
    const prompts = new Interned();
    const { domainOfUrl } = this.urls;
    for (const t of top) {
      for (const seen of t.seenIn) {
        if (seen.competitorSet !== undefined) continue;
        const { s } = seen;
        seen.competitorSet = sets.id(competitorsOf(s).join('\n'));
        seen.promptId = s.prompt ? prompts.id(s.prompt) : -1;
        seen.cited.forEach((u, k) => {
          const j = slot.get(domainOfUrl[u]!);
          if (j !== undefined) addPage(pages[j]!.cited, u, s.citationList![k]!);
        });
        for (let i = 0; i < seen.retrieved.length; i += 2) {
          const u = seen.retrieved[i]!;
          const j = slot.get(domainOfUrl[u]!);
          if (j !== undefined)
            addPage(pages[j]!.retrieved, u, s.referenceList![seen.retrieved[i + 1]!]!);
        }
      }
    }
    const setNames = sets.values.map((set) => (set ? set.split('\n') : []));
    const opportunities = top.map((t, j): CitationOpportunity => {
      const domain = domains[t.domain]!;
      const perSet = new Uint32Array(sets.size);
      const asked = new Uint32Array(prompts.size);
      const buckets = new Set<number>();
      for (const seen of t.seenIn) {
        perSet[seen.competitorSet!]!++;
        if (seen.promptId! >= 0) asked[seen.promptId!]!++;
        buckets.add(seen.bucket);
      }
      const competitors = new Map<string, number>();
      perSet.forEach((n, set) => {
        for (const name of setNames[set]!) competitors.set(name, (competitors.get(name) ?? 0) + n);
      });
      return {
        domain,
        ...tagDomain(domain, this.groups),
        answers: t.answers,
        userAnswers: t.userAnswers,
        retrievedAnswers: t.retrievedAnswers,
        competitors: mostFirst(competitors, LIST_LIMIT),
        pages: pagesOf(pages[j]!.cited),
        retrieved: pagesOf(pages[j]!.retrieved),
        prompts: prompts.top(asked, LIST_LIMIT),
        places: places.filter((p) => buckets.has(p.bucket)).map((p) => p.place),
      };
    });
    return { discovered, opportunities };
  }
}

/** The `limit` most counted keys, most first, ties by code point order. */
function mostFirst(counts: Map<string, number>, limit: number): string[] {
  return [...counts]
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || byName(a, b))
    .slice(0, limit)
    .map(([name]) => name);
}

/** Strings as ids 0, 1, …, and the most counted of them by a count per id. */
class Interned {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];
  get size(): number {
    return this.values.length;
  }
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.values.push(value) - 1));
    return id;
  }
  /** The `limit` most counted, most first, ties by code point order. */
  top(counts: Uint32Array, limit: number): string[] {
    const counted: number[] = [];
    counts.forEach((n, id) => {
      if (n > 0) counted.push(id);
    });
    return counted
      .sort((a, b) => counts[b]! - counts[a]! || byName(this.values[a]!, this.values[b]!))
      .slice(0, limit)
      .map((id) => this.values[id]!);
  }
}

/** The competitors a competitor answer names: the groups after the first, then its discovered brands. */
function competitorsOf(s: InsightInput): string[] {
  const names: string[] = [];
  const mentions = s.mentions ?? [];
  for (let i = 1; i < mentions.length; i++) {
    if (mentions[i]!.count > 0) names.push(mentions[i]!.keyword);
  }
  for (const d of s.discovered ?? []) names.push(d.name);
  return names;
}
