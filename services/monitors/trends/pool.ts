/**
 * Pooling snapshot cells, pure: the counts of any set of cells (a platform in
 * one run, a tag, a region …) added up, so that every figure of the pool is
 * computed from its counts as if the cells were one, and each interval from
 * the pooled n. Trends and change detection both read pools.
 */
import type { Rate } from '../../shared/contracts/monitor-trends.js';
import type { CellSnapshot, GroupCounts } from '../snapshot.js';
import { wilson } from '../figures/wilson.js';

/** The top cited domains a point lists. */
export const TOP_DOMAINS = 10;

export interface BrandTally {
  mentioned: number;
  mentionCount: number;
  positionSum: number;
  positionSquares: number;
  positions: number;
  inReasoning: number;
  inReferences: number;
  inCitations: number;
  droppedAfterReasoning: number;
}

/** A discovered brand (snapshot.ts DiscoveredCounts) over the pooled cells. */
export interface DiscoveredTally {
  /** As first met. */
  name: string;
  mentioned: number;
  positionSum: number;
  positionSquares: number;
  positions: number;
}

export interface Pool {
  cells: number;
  asked: number;
  answered: number;
  stabilitySum: number;
  stabilityCells: number;
  /** Answers citing each domain. */
  domains: Map<string, number>;
  models: Set<string>;
  /** Per keyword group, in the order first met. */
  brands: Map<string, BrandTally>;
  /** Per discovered brand's key, in the order first met. */
  discovered: Map<string, DiscoveredTally>;
}

export function emptyPool(): Pool {
  return {
    cells: 0,
    asked: 0,
    answered: 0,
    stabilitySum: 0,
    stabilityCells: 0,
    domains: new Map(),
    models: new Set(),
    brands: new Map(),
    discovered: new Map(),
  };
}

export function emptyTally(): BrandTally {
  return {
    mentioned: 0,
    mentionCount: 0,
    positionSum: 0,
    positionSquares: 0,
    positions: 0,
    inReasoning: 0,
    inReferences: 0,
    inCitations: 0,
    droppedAfterReasoning: 0,
  };
}

function addBrand(pool: Pool, g: GroupCounts): void {
  let t = pool.brands.get(g.keyword);
  if (!t) pool.brands.set(g.keyword, (t = emptyTally()));
  t.mentioned += g.mentioned;
  t.mentionCount += g.mentionCount;
  for (const p of g.positions) {
    t.positionSum += p;
    t.positionSquares += p * p;
    t.positions++;
  }
  t.inReasoning += g.inReasoning;
  t.inReferences += g.inReferences;
  t.inCitations += g.inCitations;
  t.droppedAfterReasoning += g.droppedAfterReasoning;
}

export function addCell(pool: Pool, cell: CellSnapshot): void {
  pool.cells++;
  pool.asked += cell.asked;
  pool.answered += cell.answered;
  if (cell.stability !== null) {
    pool.stabilitySum += cell.stability;
    pool.stabilityCells++;
  }
  for (const [domain, count] of Object.entries(cell.citedDomains)) {
    pool.domains.set(domain, (pool.domains.get(domain) ?? 0) + count);
  }
  for (const m of cell.models) pool.models.add(m);
  for (const g of cell.groups) addBrand(pool, g);
  for (const d of cell.discovered ?? []) {
    let t = pool.discovered.get(d.key);
    if (!t) pool.discovered.set(d.key, (t = emptyDiscovered(d.name)));
    t.mentioned += d.mentioned;
    for (const p of d.positions) {
      t.positionSum += p;
      t.positionSquares += p * p;
      t.positions++;
    }
  }
}

export function emptyDiscovered(name: string): DiscoveredTally {
  return { name, mentioned: 0, positionSum: 0, positionSquares: 0, positions: 0 };
}

/** A Wilson 95 % rate, with nulls when nothing was counted. */
export function rate(successes: number, n: number): Rate {
  if (n === 0) return { value: null, lower: null, upper: null, n: 0 };
  return wilson(successes, n);
}

/** Mean and sample standard deviation (n − 1; 0 for one place) of the brand's places. */
export function positionOf(
  t: Pick<BrandTally, 'positionSum' | 'positionSquares' | 'positions'>,
): { mean: number; sd: number; n: number } | null {
  if (t.positions === 0) return null;
  const mean = t.positionSum / t.positions;
  const squares = t.positionSquares - t.positions * mean * mean;
  const sd = t.positions > 1 ? Math.sqrt(Math.max(0, squares) / (t.positions - 1)) : 0;
  return { mean, sd, n: t.positions };
}

/** All groups' mentions in the pool: the denominator of share of voice. */
export function voice(pool: Pool): number {
  let total = 0;
  for (const t of pool.brands.values()) total += t.mentionCount;
  return total;
}

/** Most cited first, ties by name (code point order: the same in every locale). */
export function topDomains(
  domains: ReadonlyMap<string, number>,
  limit = TOP_DOMAINS,
): { domain: string; count: number }[] {
  return [...domains]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([domain, count]) => ({ domain, count }));
}
