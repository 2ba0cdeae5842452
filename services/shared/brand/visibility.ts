/**
 * A task's visibility: per group × platform (× channel when the task holds
 * the platform on both channels, × the mode that ran when it holds the
 * platform's channel in more than one), the mention rate, positions (top-1
 * and top-3 shares), group ranks, share of voice and citation share over its
 * completed sub tasks, per platform the most cited domains, and the
 * insights (insights.ts: discovered brands, citation opportunities). One pass
 * over the sub tasks.
 */
import type { Reference } from '../contracts/answer.js';
import type {
  CitedDomain,
  KeywordGroup,
  Mention,
  PlatformDomains,
  Visibility,
  VisibilityRow,
} from '../contracts/brand.js';
import { CHANNELS, MODES, type Channel, type Mode } from '../platforms/definition.js';
import { tagDomain } from './domains.js';
import { Insights, type InsightInput } from './insights.js';
import type { Place } from './place.js';
import { UrlIndex } from './url-index.js';

export interface VisibilityInput extends InsightInput {
  platform: string;
  channel?: Channel;
  /** The requested mode. */
  mode: Mode;
  /** The mode that really ran (a silent fallback); absent or null: the requested one. */
  effectiveMode?: Mode | null;
  status: string;
  mentions?: Mention[] | null;
  citationList?: Reference[] | null;
}

const TOP_DOMAINS = 20;

/** Sum, count and best (lowest) of a place over the answers that give one. */
interface Places {
  sum: number;
  n: number;
  best: number | null;
}

interface GroupTally {
  mentioned: number;
  position: Places;
  groupRank: Places;
  top1: number;
  top3: number;
  count: number;
  cited: number;
}

const places = (): Places => ({ sum: 0, n: 0, best: null });

function addPlace(p: Places, place: number | null): void {
  if (place === null) return;
  p.sum += place;
  p.n++;
  if (p.best === null || place < p.best) p.best = place;
}

const average = (p: Places): number | null => (p.n ? p.sum / p.n : null);

/** One platform on one channel in one mode. */
class Bucket {
  answers = 0;
  readonly tallies: GroupTally[];
  /** Citations per domain id (UrlIndex). */
  readonly domains = new Map<number, number>();

  /** All groups' mentions. */
  voice(): number {
    return this.tallies.reduce((sum, t) => sum + t.count, 0);
  }

  /** `index`: the order it was made in, how the insights name it. */
  constructor(
    groups: number,
    readonly index: number,
  ) {
    this.tallies = Array.from({ length: groups }, () => ({
      mentioned: 0,
      position: places(),
      groupRank: places(),
      top1: 0,
      top3: 0,
      count: 0,
      cited: 0,
    }));
  }
}

/** The mode a sub task counts under: the one that ran once answered, else the one asked for. */
export function countedMode(s: Pick<VisibilityInput, 'status' | 'mode' | 'effectiveMode'>): Mode {
  return (s.status === 'completed' && s.effectiveMode) || s.mode;
}

/** Platforms by name (code point order: the same in every locale). */
function byPlatform([a]: [string, unknown], [b]: [string, unknown]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Only completed sub tasks count as answers, under the mode that really ran,
 * so a silent fallback does not count for the mode asked for; the others
 * still make their platform, channel and requested mode present, so their
 * rows exist with 0 answers. A sub task without `channel` (stored before
 * channels were recorded) is an api one. Mentions are matched to groups by
 * keyword; absent ones count as none. Rows come in one stable order whatever
 * order the sub tasks are read in (`byPlatform`): group order, then platform
 * name, then api before web, then MODES order; `domains` in the same order
 * without the group. `insights: false` leaves `discovered` and
 * `opportunities` empty, for a caller that shows neither (the XLSX
 * visibility sheet; the benchmark's baseline).
 */
export function visibilityOf(
  groups: readonly KeywordGroup[],
  subTasks: Iterable<VisibilityInput>,
  { insights: withInsights = true }: { insights?: boolean } = {},
): Visibility {
  const groupIndex = new Map(groups.map((g, i) => [g.keyword, i]));
  const platforms = new Map<string, Map<Channel, Map<Mode, Bucket>>>();
  const urls = new UrlIndex();
  const insights = withInsights ? new Insights(groups, urls) : null;
  /** The URL ids of one sub task's citations, handed to the insights (reused). */
  const cited: number[] = [];
  let made = 0;

  for (const s of subTasks) {
    const channel: Channel = s.channel ?? 'api';
    const mode = countedMode(s);
    let channels = platforms.get(s.platform);
    if (!channels) platforms.set(s.platform, (channels = new Map()));
    let modes = channels.get(channel);
    if (!modes) channels.set(channel, (modes = new Map()));
    let bucket = modes.get(mode);
    if (!bucket) modes.set(mode, (bucket = new Bucket(groups.length, made++)));
    if (s.status !== 'completed') continue;
    bucket.answers++;
    const mentions = s.mentions;
    if (mentions) {
      for (const m of mentions) {
        const tally = bucket.tallies[groupIndex.get(m.keyword) ?? -1];
        if (!tally) continue;
        if (m.count > 0) tally.mentioned++;
        tally.count += m.count;
        addPlace(tally.position, m.position);
        addPlace(tally.groupRank, m.groupRank);
        if (m.position === 1) tally.top1++;
        if (m.position !== null && m.position <= 3) tally.top3++;
        if (m.inCitations) tally.cited++;
      }
    }
    cited.length = 0;
    const citations = s.citationList;
    if (citations) {
      for (const c of citations) {
        const u = urls.id(c.url);
        cited.push(u);
        const domain = urls.domainOfUrl[u]!;
        if (domain >= 0) bucket.domains.set(domain, (bucket.domains.get(domain) ?? 0) + 1);
      }
    }
    insights?.add(s, bucket.index, cited);
  }

  const buckets: { place: Place; bucket: Bucket }[] = [];
  for (const [platform, channels] of [...platforms].sort(byPlatform)) {
    for (const channel of CHANNELS) {
      const modes = channels.get(channel);
      if (!modes) continue;
      for (const mode of MODES) {
        const bucket = modes.get(mode);
        if (!bucket) continue;
        const place: Place = { platform };
        if (channels.size > 1) place.channel = channel;
        if (modes.size > 1) place.mode = mode;
        buckets.push({ place, bucket });
      }
    }
  }

  const rows: VisibilityRow[] = [];
  groups.forEach((g, i) => {
    for (const { place, bucket } of buckets) {
      const t = bucket.tallies[i]!;
      const voice = bucket.voice();
      const share = (n: number): number => (bucket.answers ? n / bucket.answers : 0);
      rows.push({
        keyword: g.keyword,
        ...place,
        answers: bucket.answers,
        mentionRate: share(t.mentioned),
        averagePosition: average(t.position),
        bestPosition: t.position.best,
        top1Share: share(t.top1),
        top3Share: share(t.top3),
        averageGroupRank: average(t.groupRank),
        bestGroupRank: t.groupRank.best,
        shareOfVoice: voice ? t.count / voice : 0,
        citationShare: share(t.cited),
      });
    }
  });

  const tags = new Map<string, ReturnType<typeof tagDomain>>();
  const domains: PlatformDomains[] = buckets.map(({ place, bucket }) => ({
    ...place,
    top: [...bucket.domains]
      .map(([id, count]) => [urls.domains[id]!, count] as const)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, TOP_DOMAINS)
      .map(([domain, count]): CitedDomain => {
        let tag = tags.get(domain);
        if (!tag) tags.set(domain, (tag = tagDomain(domain, groups)));
        return { domain, count, ...tag };
      }),
  }));

  return {
    keywords: groups.map((g) => g.keyword),
    groups: groups.map((g) => ({
      keyword: g.keyword,
      aliases: [...g.aliases],
      domains: [...g.domains],
    })),
    rows,
    domains,
    ...(insights?.result(
      buckets.map(({ place, bucket }) => ({
        bucket: bucket.index,
        place,
        answers: bucket.answers,
      })),
    ) ?? { discovered: [], opportunities: [] }),
  };
}
