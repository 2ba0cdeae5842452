/** Chart data from a task's visibility summary (services/shared/contracts/brand.ts), pure. */
import type { ChartData } from 'chart.js';
import type { Visibility } from './types.js';
import { placeName } from '../../services/shared/brand/place.js';

const PALETTE = ['#2459b3', '#d9822b', '#1f7a4d', '#b32424', '#7a4dbf', '#0f8a9d', '#8a5a00'];
export const colour = (i: number): string => PALETTE[i % PALETTE.length]!;
const TAG_COLOURS: Record<string, string> = {
  owned: '#1f7a4d',
  competitor: '#b32424',
  other: '#7d8a97',
};

/** Shares only (0..1, taller is better): a place such as averagePosition is not charted as a bar. */
type Metric = 'mentionRate' | 'top3Share' | 'shareOfVoice';

/** Platforms on the x axis, one bar per keyword group; shares in percent. */
export function perKeyword(v: Visibility, metric: Metric): ChartData<'bar'> {
  const labels = [...new Set(v.rows.map(placeName))];
  return {
    labels,
    datasets: v.keywords.map((keyword, i) => ({
      label: keyword,
      backgroundColor: colour(i),
      data: labels.map((label) => {
        const row = v.rows.find((r) => r.keyword === keyword && placeName(r) === label);
        const value = row?.[metric] ?? null;
        return value === null ? null : value * 100;
      }) as number[],
    })),
  };
}

/** The most cited domains over all platforms, coloured by owned / competitor / other. */
export function topDomains(v: Visibility, limit = 10): ChartData<'bar'> {
  const counts = new Map<string, { count: number; tag: string }>();
  for (const p of v.domains) {
    for (const d of p.top) {
      const seen = counts.get(d.domain);
      counts.set(d.domain, { count: (seen?.count ?? 0) + d.count, tag: d.tag });
    }
  }
  const top = [...counts.entries()]
    .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
    .slice(0, limit);
  return {
    labels: top.map(([domain]) => domain),
    datasets: [
      {
        label: 'citations',
        data: top.map(([, d]) => d.count),
        backgroundColor: top.map(([, d]) => TAG_COLOURS[d.tag] ?? TAG_COLOURS.other!),
      },
    ],
  };
}

/** What a chart can lack: no answer at all, no mention of a keyword, no cited source. */
export type ChartGap = 'noAnswersYet' | 'noMentionsYet' | 'noCitationsYet';

/**
 * Why the charts would be blank, or null where they have something to draw:
 * `keywords` for the per-keyword charts, `domains` for the cited domains.
 */
export function chartGaps(v: Visibility): {
  keywords: ChartGap | null;
  domains: ChartGap | null;
} {
  if (!v.rows.some((r) => r.answers > 0)) {
    return { keywords: 'noAnswersYet', domains: 'noAnswersYet' };
  }
  return {
    keywords: v.rows.some((r) => r.mentionRate > 0) ? null : 'noMentionsYet',
    domains: v.domains.some((d) => d.top.length > 0) ? null : 'noCitationsYet',
  };
}
