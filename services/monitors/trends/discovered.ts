/**
 * The discovered brands of a monitor's trends, pure: per group, each brand the
 * answers recommend that no group watches (snapshot.ts DiscoveredCounts,
 * pooled like a keyword group) with one point per run, its share of the
 * group's answers with the Wilson 95 % interval, and its place. A run whose
 * answers do not name it is a point at 0, so a brand that appears shows as a
 * rise; a run in which it was watched (a keyword group of that run has its
 * key) has no point: the group's own series carries it there.
 */
import type { DiscoveredPoint, DiscoveredSeries } from '../../shared/contracts/monitor-trends.js';
import { brandKey } from '../../shared/brand/brand-name.js';
import { positionOf, rate, type Pool } from './pool.js';
import type { PooledRun } from './pooled.js';

/** Series per group at most: the brands most named over the window. */
export const DISCOVERED_PER_GROUP = 20;

interface Building {
  series: DiscoveredSeries;
  best: number;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The keys of a run's keyword groups in a pool (their naming keywords). */
function watchedIn(pool: Pool, keys: Map<string, string>): Set<string> {
  const watched = new Set<string>();
  for (const keyword of pool.brands.keys()) {
    let key = keys.get(keyword);
    if (key === undefined) keys.set(keyword, (key = brandKey(keyword)));
    if (key) watched.add(key);
  }
  return watched;
}

/**
 * `runs`: oldest first, each with its pools of one groupBy; `watchedNow`: the
 * keys of every alias the monitor watches today.
 */
export function discoveredSeries(
  runs: readonly { run: PooledRun; pools: ReadonlyMap<string, Pool> }[],
  watchedNow: ReadonlySet<string>,
): DiscoveredSeries[] {
  const keys = new Map<string, string>();
  const byGroup = new Map<string, Map<string, Building>>();
  // First the brands each group ever names, so that runs before one appeared give it a 0.
  for (const { pools } of runs) {
    for (const [group, pool] of pools) {
      let brands = byGroup.get(group);
      if (!brands) byGroup.set(group, (brands = new Map()));
      for (const [key, t] of pool.discovered) {
        if (brands.has(key)) continue;
        const series = { group, name: t.name, key, watched: watchedNow.has(key), answers: 0 };
        brands.set(key, { series: { ...series, points: [] }, best: Infinity });
      }
    }
  }
  for (const { run, pools } of runs) {
    for (const [group, pool] of pools) {
      if (pool.answered === 0) continue;
      const watched = watchedIn(pool, keys);
      for (const [key, b] of byGroup.get(group)!) {
        if (watched.has(key)) continue;
        const t = pool.discovered.get(key);
        const point: DiscoveredPoint = {
          runId: run.runId,
          slot: run.slot,
          finishedAt: run.finishedAt,
          share: rate(t?.mentioned ?? 0, pool.answered),
          position: t ? positionOf(t) : null,
        };
        b.series.points.push(point);
        b.series.answers += t?.mentioned ?? 0;
        if (point.position) b.best = Math.min(b.best, point.position.mean);
      }
    }
  }
  const out: DiscoveredSeries[] = [];
  for (const group of [...byGroup.keys()].sort(byCodePoint)) {
    const ranked = [...byGroup.get(group)!.values()]
      .filter((b) => b.series.answers > 0)
      .sort(
        (a, b) =>
          b.series.answers - a.series.answers ||
          a.best - b.best ||
          byCodePoint(a.series.name, b.series.name),
      )
      .slice(0, DISCOVERED_PER_GROUP);
    out.push(...ranked.map((b) => b.series));
  }
  return out;
}
