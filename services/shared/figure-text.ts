/**
 * A monitor's figures as text, pure: a rate with its 95 % interval and n, and
 * an API–web gap in percentage points with its interval and both rates. The
 * dashboard and the MCP summaries write them alike, so a figure an assistant
 * quotes reads as the page shows it.
 */
import type { GapSeries, Rate } from './contracts/monitor-trends.js';

type GapPoint = GapSeries['points'][number];

/** A share in percent to one decimal; null stays null. */
export const pct = (share: number | null): number | null =>
  share === null ? null : Math.round(share * 1000) / 10;

/** `62% (38–80%, n = 6)`; a rate over no answer is only its n. */
export function rateText(r: Rate): string {
  if (r.value === null || r.lower === null || r.upper === null) return `n = ${r.n}`;
  return `${pct(r.value)}% (${pct(r.lower)}–${pct(r.upper)}%, n = ${r.n})`;
}

/** A difference of shares in percentage points with its interval: `+12 pp (−5 to +30)`. */
export function gapText(g: GapPoint['gap']): string {
  if (g.value === null || g.lower === null || g.upper === null) return '—';
  const signed = (v: number) => `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(pct(v)!)}`;
  return `${signed(g.value)} pp (${signed(g.lower)} to ${signed(g.upper)})`;
}

/** One run's gap (API − web) with its interval, then both rates with theirs. */
export const gapPointText = (p: GapPoint): string =>
  `${gapText(p.gap)} · API ${rateText(p.api)} · web ${rateText(p.web)}`;
