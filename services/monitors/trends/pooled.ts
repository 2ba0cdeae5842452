/**
 * A region's cells pre-pooled when the region is snapshotted, pure: per
 * groupBy dimension the pooled counts of each group value (with its keyword
 * groups), and per prompt × platform × channel only the answered count and
 * each keyword's mentions, which is all the API–web gap reads, kept only for a
 * prompt and platform asked on both channels. Counts add up,
 * so the trends read merges a run's regions' entries into the same pools as
 * pooling every cell directly, while reading a few entries instead of every
 * cell.
 */
import type { TrendGroupBy } from '../../shared/contracts/monitor-trends.js';
import { TREND_GROUPS } from '../../shared/contracts/monitor-trends.js';
import type { CellSnapshot } from '../snapshot.js';
import {
  emptyDiscovered,
  emptyPool,
  emptyTally,
  type BrandTally,
  type DiscoveredTally,
  type Pool,
} from './pool.js';
import { poolRun } from './groups.js';
import type { RunFigures } from './runs.js';

/** A Pool as stored: plain objects, keyword groups in the order first met. */
export interface StoredPool {
  group: string;
  cells: number;
  asked: number;
  answered: number;
  stabilitySum: number;
  stabilityCells: number;
  domains: Record<string, number>;
  models: string[];
  brands: (BrandTally & { keyword: string })[];
  /** The discovered brands by key; absent on pools stored before they were kept. */
  discovered?: (DiscoveredTally & { key: string })[];
}

/** One prompt × platform × channel (api or web) of a region, for the gap. */
export interface GapEntry {
  prompt: number;
  platform: string;
  channel: 'api' | 'web';
  answered: number;
  brands: { keyword: string; mentioned: number }[];
}

export interface RegionPools {
  groups: Record<TrendGroupBy, StoredPool[]>;
  gap: GapEntry[];
}

/** A run as the trends read fetches it: each region's entries of one groupBy. */
export interface PooledRun {
  runId: string;
  slot: number;
  finishedAt: number | null;
  regions: { pools: { groups: Partial<Record<TrendGroupBy, StoredPool[]>>; gap: GapEntry[] } }[];
}

function stored(group: string, pool: Pool): StoredPool {
  return {
    group,
    cells: pool.cells,
    asked: pool.asked,
    answered: pool.answered,
    stabilitySum: pool.stabilitySum,
    stabilityCells: pool.stabilityCells,
    domains: Object.fromEntries(pool.domains),
    models: [...pool.models].sort(),
    brands: [...pool.brands].map(([keyword, tally]) => ({ keyword, ...tally })),
    discovered: [...pool.discovered].map(([key, tally]) => ({ key, ...tally })),
  };
}

export function poolRegion(
  regionCode: string | null,
  cells: readonly CellSnapshot[],
  promptTags: string[][],
): RegionPools {
  const run: RunFigures = {
    runId: '',
    slot: 0,
    finishedAt: null,
    promptTags,
    regions: [{ regionCode, cells: [...cells] }],
  };
  const groups = Object.fromEntries(
    TREND_GROUPS.map((by) => [
      by,
      [...poolRun(run, by)].map(([group, pool]) => stored(group, pool)),
    ]),
  ) as Record<TrendGroupBy, StoredPool[]>;
  const gap = new Map<string, GapEntry>();
  for (const cell of cells) {
    if (cell.channel !== 'api' && cell.channel !== 'web') continue;
    const key = `${cell.prompt}\n${cell.platform}\n${cell.channel}`;
    let entry = gap.get(key);
    if (!entry) {
      const { prompt, platform, channel } = cell;
      gap.set(key, (entry = { prompt, platform, channel, answered: 0, brands: [] }));
    }
    entry.answered += cell.answered;
    for (const g of cell.groups) {
      const b = entry.brands.find((x) => x.keyword === g.keyword);
      if (b) b.mentioned += g.mentioned;
      else entry.brands.push({ keyword: g.keyword, mentioned: g.mentioned });
    }
  }
  const channels = new Map<string, number>();
  for (const e of gap.values()) {
    const key = `${e.prompt}\n${e.platform}`;
    channels.set(key, (channels.get(key) ?? 0) + 1);
  }
  // Every region of a run asks the same cells: a prompt and platform without both channels here has none in the run.
  const both = [...gap.values()].filter((e) => channels.get(`${e.prompt}\n${e.platform}`) === 2);
  return { groups, gap: both };
}

/** Adds a stored pool's counts into a live pool. */
export function addStored(pool: Pool, s: StoredPool): void {
  pool.cells += s.cells;
  pool.asked += s.asked;
  pool.answered += s.answered;
  pool.stabilitySum += s.stabilitySum;
  pool.stabilityCells += s.stabilityCells;
  for (const [domain, count] of Object.entries(s.domains)) {
    pool.domains.set(domain, (pool.domains.get(domain) ?? 0) + count);
  }
  for (const m of s.models) pool.models.add(m);
  for (const { keyword, ...tally } of s.brands) {
    const t = pool.brands.get(keyword);
    if (!t) {
      pool.brands.set(keyword, { ...tally });
      continue;
    }
    for (const k of Object.keys(tally) as (keyof BrandTally)[]) t[k] += tally[k];
  }
  for (const { key, name, ...counts } of s.discovered ?? []) {
    let t = pool.discovered.get(key);
    if (!t) pool.discovered.set(key, (t = emptyDiscovered(name)));
    t.mentioned += counts.mentioned;
    t.positionSum += counts.positionSum;
    t.positionSquares += counts.positionSquares;
    t.positions += counts.positions;
  }
}

/** A run's regions' entries for `groupBy` merged into one pool per group value. */
export function runPools(run: PooledRun, groupBy: TrendGroupBy): Map<string, Pool> {
  const pools = new Map<string, Pool>();
  for (const region of run.regions) {
    for (const s of region.pools.groups[groupBy] ?? []) {
      let pool = pools.get(s.group);
      if (!pool) pools.set(s.group, (pool = emptyPool()));
      addStored(pool, s);
    }
  }
  return pools;
}

export interface GapCell {
  prompt: number;
  platform: string;
  api?: Pool;
  web?: Pool;
}

/** A run's gap entries merged over regions per prompt × platform, each channel as a pool. */
export function gapCells(run: PooledRun): Map<string, GapCell> {
  const cells = new Map<string, GapCell>();
  for (const region of run.regions) {
    for (const e of region.pools.gap) {
      const key = `${e.prompt}\n${e.platform}`;
      let cell = cells.get(key);
      if (!cell) cells.set(key, (cell = { prompt: e.prompt, platform: e.platform }));
      const pool = (cell[e.channel] ??= emptyPool());
      pool.answered += e.answered;
      for (const b of e.brands) {
        const t = pool.brands.get(b.keyword);
        if (t) t.mentioned += b.mentioned;
        else pool.brands.set(b.keyword, { ...emptyTally(), mentioned: b.mentioned });
      }
    }
  }
  return cells;
}
