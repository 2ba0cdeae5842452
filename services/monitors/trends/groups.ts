/** The groups a snapshot cell counts in, and one run's cells pooled per group, pure. */
import type { TrendGroupBy } from '../../shared/contracts/monitor-trends.js';
import type { CellSnapshot } from '../snapshot.js';
import { addCell, emptyPool, type Pool } from './pool.js';
import { cellsOf, type RunFigures } from './runs.js';

/** The group a cell without a region, or a prompt without tags, falls into. */
export const NO_GROUP = '';

/** The groups a cell counts in: one, or one per tag of its prompt. */
export function groupsOf(
  groupBy: TrendGroupBy,
  regionCode: string | null,
  cell: CellSnapshot,
  promptTags: readonly (readonly string[])[],
): readonly string[] {
  switch (groupBy) {
    case 'platform':
      return [cell.platform];
    case 'channel':
      return [cell.channel];
    case 'mode':
      return [cell.mode];
    case 'region':
      return [regionCode ?? NO_GROUP];
    case 'tag': {
      const tags = promptTags[cell.prompt] ?? [];
      return tags.length > 0 ? tags : [NO_GROUP];
    }
  }
}

/** One run's cells pooled per group. */
export function poolRun(run: RunFigures, groupBy: TrendGroupBy): Map<string, Pool> {
  const pools = new Map<string, Pool>();
  for (const [regionCode, cell] of cellsOf(run)) {
    for (const group of groupsOf(groupBy, regionCode, cell, run.promptTags)) {
      let pool = pools.get(group);
      if (!pool) pools.set(group, (pool = emptyPool()));
      addCell(pool, cell);
    }
  }
  return pools;
}
