/**
 * The changes a finished run brings, pure: each cell (region × prompt ×
 * platform, channel, mode) and each platform (its cells pooled) compared with
 * the run before (changes/rules.ts), and a CUSUM over every earlier run per
 * platform and keyword group (figures/cusum.ts) for a slow drift no single
 * step shows. A drift is reported at the run where the sum crosses. The
 * discovered brands are compared over the whole run (changes/discovered.ts).
 */
import type { ChangeScope } from '../../shared/contracts/monitor-trends.js';
import { cusum } from '../figures/cusum.js';
import { addCell, emptyPool, type Pool } from '../trends/pool.js';
import { cellsOf, type RunFigures } from '../trends/runs.js';
import { poolRun } from '../trends/groups.js';
import { compare, type ChangeDraft } from './rules.js';
import { discoveredChanges } from './discovered.js';

function cellPools(run: RunFigures): Map<string, { scope: ChangeScope; pool: Pool }> {
  const pools = new Map<string, { scope: ChangeScope; pool: Pool }>();
  for (const [regionCode, cell] of cellsOf(run)) {
    const scope: ChangeScope = {
      level: 'cell',
      regionCode,
      platform: cell.platform,
      channel: cell.channel,
      mode: cell.mode,
      prompt: cell.prompt,
    };
    const pool = emptyPool();
    addCell(pool, cell);
    pools.set(JSON.stringify(scope), { scope, pool });
  }
  return pools;
}

const platformScope = (platform: string): ChangeScope => ({
  level: 'group',
  regionCode: null,
  platform,
  channel: null,
  mode: null,
  prompt: null,
});

function drifts(history: readonly RunFigures[]): ChangeDraft[] {
  const pooled = history.map((run) => poolRun(run, 'platform'));
  const last = pooled.at(-1);
  if (!last) return [];
  const out: ChangeDraft[] = [];
  for (const [platform, pool] of last) {
    for (const keyword of pool.brands.keys()) {
      const series = pooled.map((pools) => {
        const p = pools.get(platform);
        return { successes: p?.brands.get(keyword)?.mentioned ?? 0, n: p?.answered ?? 0 };
      });
      const result = cusum(series);
      const signal = result.signals.find((s) => s.index === series.length - 1);
      if (!signal || result.baseline === null) continue;
      const now = series.at(-1)!;
      out.push({
        kind: 'drift',
        scope: platformScope(platform),
        keyword,
        domain: null,
        before: Math.round(result.baseline * 1000) / 1000,
        after: Math.round((now.successes / now.n) * 1000) / 1000,
        detail: `CUSUM ${signal.direction} ${signal.statistic.toFixed(2)} > 4 standard errors against the first 5 runs' rate, over ${series.length} runs`,
      });
    }
  }
  return out;
}

/**
 * `history`: the monitor's finished runs up to and including `current`, in
 * slot order; its second to last is the run `current` is compared with.
 */
export function detectChanges(history: readonly RunFigures[]): ChangeDraft[] {
  const current = history.at(-1);
  const previous = history.at(-2);
  if (!current) return [];
  const out: ChangeDraft[] = [];
  if (previous) {
    const before = cellPools(previous);
    for (const [key, { scope, pool }] of cellPools(current)) {
      const was = before.get(key);
      if (was) out.push(...compare(was.pool, pool, scope));
    }
    const platformsBefore = poolRun(previous, 'platform');
    for (const [platform, pool] of poolRun(current, 'platform')) {
      const was = platformsBefore.get(platform);
      if (was) out.push(...compare(was, pool, platformScope(platform)));
    }
  }
  out.push(...drifts(history));
  out.push(...discoveredChanges(history));
  return out;
}
