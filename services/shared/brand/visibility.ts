/**
 * A task's visibility: per group × platform (× channel when the task holds
 * the platform on both channels), the mention rate, positions (top-1 and
 * top-3 shares), group ranks, share of voice and citation share over its completed sub tasks, and per platform
 * the most cited domains. One pass over the sub tasks.
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
import { domainOf, tagDomain } from './domains.js';

export interface VisibilityInput {
  platform: string;
  channel?: 'api' | 'web';
  status: string;
  mentions?: Mention[] | null;
  citationList?: Reference[] | null;
}

type Channel = 'api' | 'web';

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

/** One platform on one channel. */
class Bucket {
  answers = 0;
  readonly tallies: GroupTally[];
  readonly domains = new Map<string, number>();

  /** All groups' mentions. */
  voice(): number {
    return this.tallies.reduce((sum, t) => sum + t.count, 0);
  }

  constructor(groups: number) {
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

/** Platforms by name (code point order: the same in every locale). */
function byPlatform([a]: [string, unknown], [b]: [string, unknown]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Only completed sub tasks count as answers; the others still make their
 * platform (and channel) present, so its rows exist with 0 answers. A sub
 * task without `channel` (stored before channels were recorded) is an api
 * one. Mentions are matched to groups by keyword; absent ones count as none.
 * Rows come in one stable order whatever order the sub tasks are read in
 * (`byPlatform`): group order, then platform name, then api before web;
 * `domains` in the same platform order.
 */
export function visibilityOf(
  groups: readonly KeywordGroup[],
  subTasks: Iterable<VisibilityInput>,
): Visibility {
  const groupIndex = new Map(groups.map((g, i) => [g.keyword, i]));
  const platforms = new Map<string, Map<Channel, Bucket>>();
  const domainOfUrl = new Map<string, string | null>();

  for (const s of subTasks) {
    const channel: Channel = s.channel ?? 'api';
    let channels = platforms.get(s.platform);
    if (!channels) platforms.set(s.platform, (channels = new Map()));
    let bucket = channels.get(channel);
    if (!bucket) channels.set(channel, (bucket = new Bucket(groups.length)));
    if (s.status !== 'completed') continue;
    bucket.answers++;
    for (const m of s.mentions ?? []) {
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
    for (const c of s.citationList ?? []) {
      let domain = domainOfUrl.get(c.url);
      if (domain === undefined) domainOfUrl.set(c.url, (domain = domainOf(c.url)));
      if (domain) bucket.domains.set(domain, (bucket.domains.get(domain) ?? 0) + 1);
    }
  }

  const buckets: { platform: string; channel?: Channel; bucket: Bucket }[] = [];
  for (const [platform, channels] of [...platforms].sort(byPlatform)) {
    const split = channels.size > 1;
    for (const channel of ['api', 'web'] as const) {
      const bucket = channels.get(channel);
      if (bucket) buckets.push(split ? { platform, channel, bucket } : { platform, bucket });
    }
  }

  const rows: VisibilityRow[] = [];
  groups.forEach((g, i) => {
    for (const { platform, channel, bucket } of buckets) {
      const t = bucket.tallies[i]!;
      const voice = bucket.voice();
      const share = (n: number): number => (bucket.answers ? n / bucket.answers : 0);
      rows.push({
        keyword: g.keyword,
        platform,
        ...(channel ? { channel } : {}),
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
  const domains: PlatformDomains[] = buckets.map(({ platform, channel, bucket }) => ({
    platform,
    ...(channel ? { channel } : {}),
    top: [...bucket.domains]
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
  };
}
