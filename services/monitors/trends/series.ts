/**
 * A monitor's trends, pure: its finished runs' pre-pooled entries merged per run into
 * one point per group (platform, region, channel, tag or mode) and keyword
 * group, each figure defined in docs/monitors.md (definitions version 2).
 */
import {
  DEFINITIONS_VERSION,
  type TrendGroupBy,
  type TrendPoint,
  type Trends,
  type TrendSeries,
} from '../../shared/contracts/monitor-trends.js';
import { positionOf, rate, topDomains, voice, type Pool } from './pool.js';
import { channelGap } from './gap.js';
import { runPools, type PooledRun } from './pooled.js';
import { discoveredSeries } from './discovered.js';

function pointOf(run: PooledRun, pool: Pool, keyword: string): TrendPoint {
  const t = pool.brands.get(keyword)!;
  const allMentions = voice(pool);
  return {
    runId: run.runId,
    slot: run.slot,
    finishedAt: run.finishedAt,
    mentionRate: rate(t.mentioned, pool.answered),
    position: positionOf(t),
    shareOfVoice: allMentions > 0 ? t.mentionCount / allMentions : null,
    citationShare: pool.answered > 0 ? t.inCitations / pool.answered : null,
    topDomains: topDomains(pool.domains),
    stability: pool.stabilityCells > 0 ? pool.stabilitySum / pool.stabilityCells : null,
    funnel: {
      n: pool.answered,
      inReasoning: t.inReasoning,
      inReferences: t.inReferences,
      inCitations: t.inCitations,
      inAnswer: t.mentioned,
      consideredButDropped: rate(t.droppedAfterReasoning, t.inReasoning),
    },
    models: [...pool.models].sort(),
    modelChanged: false,
    samples: {
      cells: pool.cells,
      asked: pool.asked,
      meanPerCell: pool.cells > 0 ? pool.asked / pool.cells : 0,
    },
  };
}

/**
 * A point's model marker: its models differ from those of the last earlier
 * point that reported any. A point without reported models (unknown) neither
 * carries a marker nor resets the comparison.
 */
function markModelChanges(points: TrendPoint[]): void {
  let known: string | null = null;
  for (const point of points) {
    if (point.models.length === 0) continue;
    const models = point.models.join('\n');
    point.modelChanged = known !== null && known !== models;
    known = models;
  }
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `runs`: the finished runs in the window, in any order, with their entries
 * for `groupBy`; `watchedNow`: the keys (brandKey) of every alias the monitor
 * watches today, which marks its discovered brands already watched.
 */
export function buildTrends(
  runs: readonly PooledRun[],
  groupBy: TrendGroupBy,
  window: { from: number | null; to: number | null },
  watchedNow: ReadonlySet<string> = new Set(),
): Omit<Trends, 'insights'> {
  const ordered = [...runs].sort((a, b) => a.slot - b.slot);
  const pooled = ordered.map((run) => ({ run, pools: runPools(run, groupBy) }));
  const series = new Map<string, TrendSeries>();
  const keywordOrder = new Map<string, number>();
  for (const { run, pools } of pooled) {
    for (const [group, pool] of pools) {
      for (const keyword of pool.brands.keys()) {
        if (!keywordOrder.has(keyword)) keywordOrder.set(keyword, keywordOrder.size);
        const key = `${group}\n${keyword}`;
        let s = series.get(key);
        if (!s) series.set(key, (s = { group, keyword, points: [] }));
        s.points.push(pointOf(run, pool, keyword));
      }
    }
  }
  const sorted = [...series.values()].sort(
    (a, b) =>
      byCodePoint(a.group, b.group) || keywordOrder.get(a.keyword)! - keywordOrder.get(b.keyword)!,
  );
  for (const s of sorted) markModelChanges(s.points);
  return {
    definitionsVersion: DEFINITIONS_VERSION,
    groupBy,
    from: window.from,
    to: window.to,
    series: sorted,
    discovered: discoveredSeries(pooled, watchedNow),
    channelGap: channelGap(ordered),
  };
}
