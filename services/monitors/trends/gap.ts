/**
 * The API–web gap, pure: for a prompt asked on one platform over both channels
 * in a run, each keyword group's mention rate on the API minus that on the web
 * (pooled over regions and modes), with Newcombe's hybrid score 95 % interval
 * of the difference. Runs without both channels of a prompt and platform give
 * no point.
 */
import type { GapSeries } from '../../shared/contracts/monitor-trends.js';
import { newcombe } from '../figures/newcombe.js';
import { wilson } from '../figures/wilson.js';
import { rate } from './pool.js';
import { gapCells, type PooledRun } from './pooled.js';

const NO_GAP = { value: null, lower: null, upper: null };

/** `runs` in slot order. */
export function channelGap(runs: readonly PooledRun[]): GapSeries[] {
  const series = new Map<string, GapSeries>();
  for (const run of runs) {
    const byCell = gapCells(run);
    for (const [key, { prompt, platform, api, web }] of byCell) {
      if (!api || !web) continue;
      for (const [keyword, a] of api.brands) {
        const w = web.brands.get(keyword);
        if (!w) continue;
        const both = api.answered > 0 && web.answered > 0;
        let s = series.get(`${key}\n${keyword}`);
        if (!s) series.set(`${key}\n${keyword}`, (s = { prompt, platform, keyword, points: [] }));
        s.points.push({
          runId: run.runId,
          slot: run.slot,
          api: rate(a.mentioned, api.answered),
          web: rate(w.mentioned, web.answered),
          gap: both
            ? newcombe(wilson(a.mentioned, api.answered), wilson(w.mentioned, web.answered))
            : NO_GAP,
        });
      }
    }
  }
  return [...series.values()].sort(
    (a, b) =>
      a.prompt - b.prompt || (a.platform < b.platform ? -1 : a.platform > b.platform ? 1 : 0),
  );
}
