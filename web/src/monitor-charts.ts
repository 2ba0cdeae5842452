/**
 * Chart data for a monitor's trends (the shared contract's shapes), pure: the
 * mention rate per group with its 95 % band and model-change markers, the
 * funnel of the latest run, and the API–web gap of one prompt. Each chart
 * comes with its tooltip lines, so every number shown carries its interval or n.
 */
import type { ChartData, ChartOptions } from 'chart.js';
import { gapPointText, pct, rateText } from '../../services/shared/figure-text.js';
import type { GapPoint, GapSeries, Rate, Series, TrendPoint } from './monitor-types.js';
import { colour } from './visibility-charts.js';

/** Chart data and the tooltip line of each point (null: no tooltip, as for a band's edge). */
export interface Charted<T extends 'line' | 'bar'> {
  data: ChartData<T>;
  tooltips: (string | null)[][];
}

/** Every run's slot across the series, oldest first: the shared time axis. */
export function slotsOf(series: readonly { points: readonly { slot: number }[] }[]): number[] {
  return [...new Set(series.flatMap((s) => s.points.map((p) => p.slot)))].sort((a, b) => a - b);
}

/** The keywords in the order the trends name them (the monitored brand first). */
export const keywordsOf = (series: readonly { keyword: string }[]): string[] => [
  ...new Set(series.map((s) => s.keyword)),
];

const translucent = (hex: string) => `${hex}33`;

/**
 * A band's two edges, unnamed so the legend leaves them out: the upper edge,
 * then the lower one filled up to it (Chart.js's filler).
 */
function band(hex: string, upper: (number | null)[], lower: (number | null)[]) {
  const edge = { label: '', borderWidth: 0, pointRadius: 0, pointHitRadius: 0, borderColor: hex };
  return [
    { ...edge, data: upper, fill: false },
    { ...edge, data: lower, backgroundColor: translucent(hex), fill: '-1' as const },
  ];
}

/** One line of a banded chart: its points, each point's share and interval, its tooltip, its marker. */
interface BandedLine<P extends { slot: number }> {
  name: string;
  points: readonly P[];
  interval: (p: P) => { value: number | null; lower: number | null; upper: number | null };
  tooltip: (p: P) => string;
  /** Points drawn as a larger triangle. */
  marked?: (p: P) => boolean;
}

/** Per line its 95 % band behind it, in percent, over the lines' shared time axis. */
function bandedLines<P extends { slot: number }>(
  lines: readonly BandedLine<P>[],
  label: (slot: number) => string,
): Charted<'line'> {
  const slots = slotsOf(lines);
  const datasets: ChartData<'line'>['datasets'] = [];
  const tooltips: (string | null)[][] = [];
  lines.forEach((line, i) => {
    const hex = colour(i);
    const at = slots.map((slot) => line.points.find((p) => p.slot === slot) ?? null);
    const of = (bound: 'value' | 'lower' | 'upper') =>
      at.map((p) => (p === null ? null : pct(line.interval(p)[bound])));
    const marked = at.map((p) => p !== null && (line.marked?.(p) ?? false));
    datasets.push(...band(hex, of('upper'), of('lower')), {
      label: line.name,
      data: of('value'),
      borderColor: hex,
      backgroundColor: hex,
      fill: false,
      pointStyle: marked.map((m) => (m ? 'triangle' : 'circle')),
      pointRadius: marked.map((m) => (m ? 8 : 3)),
    });
    const unnamed = slots.map(() => null);
    tooltips.push(
      unnamed,
      unnamed,
      at.map((p) => (p === null ? null : line.tooltip(p))),
    );
  });
  return { data: { labels: slots.map(label), datasets }, tooltips };
}

/**
 * The mention rate of `keyword` per group over time, in percent: per group a
 * line, its 95 % Wilson band behind it, and a larger triangle where the model
 * the platform reports changed since the run before.
 */
export function trendChart(
  series: readonly Series[],
  keyword: string,
  label: (slot: number) => string,
  modelChanged: string,
): Charted<'line'> {
  const lines = series
    .filter((s) => s.keyword === keyword)
    .map((s): BandedLine<TrendPoint> => ({
      name: s.group,
      points: s.points,
      interval: (p) => p.mentionRate,
      tooltip: (p) =>
        `${s.group}: ${rateText(p.mentionRate)}` +
        (p.modelChanged ? ` · ${modelChanged}: ${p.models.join(', ')}` : ''),
      marked: (p) => p.modelChanged,
    }));
  return bandedLines(lines, label);
}

/** Per group of `keyword`, its newest point's mention rate: the figures a single run's chart cannot band. */
export const latestRates = (series: readonly Series[], keyword: string) =>
  series
    .filter((s) => s.keyword === keyword && s.points.length > 0)
    .map((s) => ({ group: s.group, rate: s.points.at(-1)!.mentionRate }));

/** Legend without the bands' edges, tooltips only where a line is drawn. */
export function chartOptions<T extends 'line' | 'bar'>(
  tooltips: (string | null)[][],
  extra: ChartOptions<T>,
): ChartOptions<T> {
  const base: ChartOptions<'line' | 'bar'> = {
    plugins: {
      legend: { position: 'bottom', labels: { filter: (item) => item.text !== '' } },
      tooltip: {
        filter: (item) => (tooltips[item.datasetIndex]?.[item.dataIndex] ?? null) !== null,
        callbacks: { label: (item) => tooltips[item.datasetIndex]?.[item.dataIndex] ?? '' },
      },
    },
  };
  return { ...extra, plugins: { ...base.plugins, ...extra?.plugins } } as ChartOptions<T>;
}

/** The funnel's steps, in the order an answer goes through them. */
export const FUNNEL_STEPS = ['inReasoning', 'inReferences', 'inCitations', 'inAnswer'] as const;

/**
 * Per group, the latest run that counted an answer: the share of answers that
 * name `keyword` at each step (reasoning → retrieved → cited → answer), and the
 * considered-but-dropped rate (in the reasoning, not in the answer).
 */
export function funnelChart(
  series: readonly Series[],
  keyword: string,
  stepLabels: readonly string[],
): Charted<'bar'> & { dropped: { group: string; rate: Rate }[] } {
  const latest = series
    .filter((s) => s.keyword === keyword)
    .map((s) => ({ group: s.group, point: s.points.findLast((p) => p.funnel.n > 0) }))
    .filter((l) => l.point !== undefined);
  return {
    data: {
      labels: [...stepLabels],
      datasets: latest.map((l, i) => ({
        label: l.group,
        backgroundColor: colour(i),
        data: FUNNEL_STEPS.map((step) => pct(l.point!.funnel[step] / l.point!.funnel.n)!),
      })),
    },
    tooltips: latest.map((l) =>
      FUNNEL_STEPS.map((step) => `${l.group}: ${l.point!.funnel[step]} of ${l.point!.funnel.n}`),
    ),
    dropped: latest.map((l) => ({ group: l.group, rate: l.point!.funnel.consideredButDropped })),
  };
}

/** One prompt's and keyword's gap series, one per platform asked on both channels. */
const gapsOf = (gaps: readonly GapSeries[], prompt: number, keyword: string) =>
  gaps.filter((g) => g.prompt === prompt && g.keyword === keyword);

/**
 * The API–web gap of one prompt (API minus web mention rate, in percentage
 * points, as the trends define it) per platform over time, with its 95 %
 * band; the tooltip names both rates with their intervals.
 */
export function gapChart(
  gaps: readonly GapSeries[],
  prompt: number,
  keyword: string,
  label: (slot: number) => string,
): Charted<'line'> {
  const lines = gapsOf(gaps, prompt, keyword).map((g): BandedLine<GapPoint> => ({
    name: g.platform,
    points: g.points,
    interval: (p) => p.gap,
    tooltip: (p) => `${g.platform}: ${gapPointText(p)}`,
  }));
  return bandedLines(lines, label);
}

/**
 * Per platform, the newest run's gap of one prompt as text with its interval
 * and both rates: what the chart shows only on hover, written out.
 */
export const latestGaps = (gaps: readonly GapSeries[], prompt: number, keyword: string) =>
  gapsOf(gaps, prompt, keyword)
    .filter((g) => g.points.length > 0)
    .map((g) => `${g.platform}: ${gapPointText(g.points.at(-1)!)}`);
