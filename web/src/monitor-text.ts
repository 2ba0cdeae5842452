/** Pure readings of a monitor and its runs for the pages: schedule, columns, one prompt across regions, a change. */
import type { Change, DiscoveredSeries, Monitor, Rate, Run } from './monitor-types.js';
import { platformLabel } from './format.js';

/** `0 9 * * * (Europe/Berlin)` or `every 60 min`. */
export const scheduleText = (s: Monitor['schedule']): string =>
  'cron' in s ? `${s.cron} (${s.timezone})` : `every ${s.everyMinutes} min`;

/** `3` or `3–8 until ±0.2`: how many times each cell is asked. */
export const samplesText = (s: Monitor['samples']): string =>
  typeof s === 'number' ? String(s) : `${s.min}–${s.max} (width ≤ ${s.targetWidth})`;

/** The region a run's task ran in; a monitor without regions runs once without one. */
export const regionLabel = (code: string | null, none: string): string => code ?? none;

/** The newest run with figures: the runs come newest first. */
export const latestWithFigures = (runs: readonly Run[]): Run | undefined =>
  runs.find((r) => r.regions.some((g) => g.cells !== null && g.cells.length > 0));

export interface PromptComparison {
  /** `platform · channel · mode` columns, in the monitor's order. */
  columns: string[];
  rows: { region: string | null; rates: (Rate | null)[] }[];
}

/** One prompt's mention rate of `keyword` per region (rows) and platform channel (columns) in a run. */
export function promptAcrossRegions(run: Run, prompt: string, keyword: string): PromptComparison {
  const cellsOf = (g: Run['regions'][number]) => (g.cells ?? []).filter((c) => c.prompt === prompt);
  const columns = [...new Set(run.regions.flatMap((g) => cellsOf(g).map(platformLabel)))];
  return {
    columns,
    rows: run.regions.map((g) => ({
      region: g.regionCode,
      rates: columns.map((column) => {
        const cell = cellsOf(g).find((c) => platformLabel(c) === column);
        return cell?.brands.find((b) => b.keyword === keyword)?.mentionRate ?? null;
      }),
    })),
  };
}

/** The shares of a discovered brand run by run, oldest first, the last five: `0% → 50% → 75%`. */
export function shareTrend(points: DiscoveredSeries['points']): string {
  return points
    .slice(-5)
    .map((p) => (p.share.value === null ? '—' : `${Math.round(p.share.value * 1000) / 10}%`))
    .join(' → ');
}

/** Where a change was seen: `310100 · sandbox · web · search · “best CRM…”`; a whole run: `all`. */
export function changeScope(c: Change, prompts: readonly string[], all = 'all'): string {
  const s = c.scope;
  if (s.level === 'run') return all;
  const prompt = s.prompt === null ? null : `“${prompts[s.prompt] ?? `#${s.prompt + 1}`}”`;
  return [s.regionCode, s.platform, s.channel, s.mode, prompt].filter(Boolean).join(' · ');
}

const RATE_KINDS: readonly Change['kind'][] = [
  'brand_gained',
  'brand_lost',
  'drift',
  'discovered_new',
  'discovered_rose',
];

/** The change's before → after, rates in percent and positions as places. */
export function changeValues(c: Change): string | null {
  if (c.before === null && c.after === null) return null;
  const show = (v: number | null) =>
    v === null
      ? '—'
      : RATE_KINDS.includes(c.kind)
        ? `${Math.round(v * 1000) / 10}%`
        : String(Math.round(v * 10) / 10);
  return `${show(c.before)} → ${show(c.after)}`;
}

/** The task ids of a run's regions, for the change feed's links. */
export function tasksByRun(runs: readonly Run[]): Map<string, Run['regions']> {
  return new Map(runs.map((r) => [r.runId, r.regions]));
}

/** The brands a run's cells count, in the monitor's order (the monitored brand first). */
export const keywordsOfRun = (run: Run | undefined): string[] => [
  ...new Set(
    run?.regions.flatMap((g) => (g.cells ?? []).flatMap((c) => c.brands.map((b) => b.keyword))),
  ),
];
