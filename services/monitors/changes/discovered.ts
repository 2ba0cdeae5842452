/**
 * The changes of the discovered brands (docs/insights.md), pure: over a whole
 * run (every region and cell pooled), compared with the run before:
 * - discovered_new: a brand the run's answers recommend that no earlier run
 *   named, discovered or watched (a monitor's first run sets the baseline and
 *   brings none);
 * - discovered_rose: a brand named before whose share of answers rose by more
 *   than the noise, by the rule of brand_gained: the two Wilson 95 % intervals
 *   do not overlap, or the pooled two-proportion z-test is significant at 95 %.
 * A run that watched the brand (a keyword group has its key) is no "before":
 * its group's own changes cover it.
 */
import type { ChangeScope } from '../../shared/contracts/monitor-trends.js';
import { brandKey } from '../../shared/brand/brand-name.js';
import { twoProportionTest } from '../figures/two-proportion.js';
import { disjoint, wilson } from '../figures/wilson.js';
import { addCell, emptyPool, type Pool } from '../trends/pool.js';
import { cellsOf, type RunFigures } from '../trends/runs.js';
import type { ChangeDraft } from './rules.js';

export const RUN_SCOPE: ChangeScope = {
  level: 'run',
  regionCode: null,
  platform: null,
  channel: null,
  mode: null,
  prompt: null,
};

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Every cell of a run in one pool. */
function wholeRun(run: RunFigures): Pool {
  const pool = emptyPool();
  for (const [, cell] of cellsOf(run)) addCell(pool, cell);
  return pool;
}

/** The keys of a pool's keyword groups (the brands the run watched). */
const watchedIn = (pool: Pool): Set<string> => new Set([...pool.brands.keys()].map(brandKey));

/** `history`: the monitor's finished runs up to and including the current one, in slot order. */
export function discoveredChanges(history: readonly RunFigures[]): ChangeDraft[] {
  if (history.length < 2) return [];
  const pools = history.map(wholeRun);
  const now = pools.at(-1)!;
  const was = pools.at(-2)!;
  if (now.answered === 0 || was.answered === 0) return [];
  const seen = new Set<string>();
  for (const pool of pools.slice(0, -1)) {
    for (const key of pool.discovered.keys()) seen.add(key);
    for (const key of watchedIn(pool)) seen.add(key);
  }
  const watchedBefore = watchedIn(was);
  const out: ChangeDraft[] = [];
  for (const [key, t] of now.discovered) {
    if (t.mentioned === 0) continue;
    const after = wilson(t.mentioned, now.answered);
    if (!seen.has(key)) {
      out.push({
        kind: 'discovered_new',
        scope: RUN_SCOPE,
        keyword: t.name,
        domain: null,
        before: 0,
        after: round(after.value),
        detail: `recommended in ${t.mentioned}/${now.answered} answers; no earlier run named it`,
      });
      continue;
    }
    if (watchedBefore.has(key)) continue;
    const mentioned = was.discovered.get(key)?.mentioned ?? 0;
    const before = wilson(mentioned, was.answered);
    const test = twoProportionTest(mentioned, was.answered, t.mentioned, now.answered);
    const apart = disjoint(before, after);
    if (after.value <= before.value || !(apart || test.significant)) continue;
    const why = apart
      ? 'the Wilson 95 % intervals do not overlap'
      : `two-proportion z = ${test.z.toFixed(2)}`;
    out.push({
      kind: 'discovered_rose',
      scope: RUN_SCOPE,
      keyword: t.name,
      domain: null,
      before: round(before.value),
      after: round(after.value),
      detail: `recommended in ${t.mentioned}/${now.answered} answers, was ${mentioned}/${was.answered} (${why})`,
    });
  }
  return out;
}
