/**
 * The soak's resource lines, from the sampled series: per process incarnation
 * the RSS and the live heap (after a forced collection) at the end of the
 * warm-up and at the end, their least-squares slopes after the warm-up in
 * MB/h, the growth in open file descriptors and the event-loop delay; and the
 * targets (a slope under 20 MB/h, fds flat). Pure.
 */
import { percentile } from '../common.js';
import { mb, slopePerHour, span, type Point } from './figures.js';
import type { Series } from './sampler.js';

export const SLOPE_TARGET_MB_H = 20;
/** Open files may move by a few (a pooled connection, a log rotation) without growing. */
export const FD_TOLERANCE = 5;
/** Shorter than this after the warm-up, a slope says nothing yet: printed, not judged. */
export const JUDGED_AFTER_MS = 20 * 60_000;

export interface ProcessFigures {
  label: string;
  /** Sampled after the warm-up for this long. */
  spanMs: number;
  rss: Trend;
  heap: Trend | undefined;
  /**
   * What the RSS is made of, where the probe says (Node): V8's committed heap, the memory
   * outside it that Buffers hold, and the native rest (code, malloc, threads' stacks). A
   * growing RSS over a flat live heap is named by the part that grows.
   */
  parts: { v8: Trend; buffers: Trend; native: Trend } | undefined;
  fds: { first: number; last: number; max: number };
  loopP99Ms: number;
  loopMaxMs: number;
}

/** The figures of one incarnation, counting from `warmEnd` (or its own start plus the warm-up). */
export function processFigures(s: Series, label: string, from: number): ProcessFigures | undefined {
  const samples = s.samples.filter((x) => x.at >= from);
  if (samples.length < 2) return undefined;
  const pts = (f: (x: (typeof samples)[number]) => number): Point[] =>
    samples.map((x) => ({ at: x.at, value: f(x) })).filter((p) => Number.isFinite(p.value));
  const rss = pts((x) => mb(x.rss));
  const heap = pts((x) => mb(x.heapUsed));
  const v8 = pts((x) => mb(x.heapTotal));
  const buffers = pts((x) => mb(x.external));
  const native = pts((x) => mb(x.rss - x.heapTotal - x.external));
  const loop = samples.map((x) => x.loopP99Ms).filter(Number.isFinite);
  const sorted = [...loop].sort((a, b) => a - b);
  return {
    label,
    spanMs: samples[samples.length - 1]!.at - samples[0]!.at,
    rss: trend(rss),
    heap: heap.length >= 2 ? trend(heap) : undefined,
    parts:
      v8.length >= 2 && buffers.length >= 2 && native.length >= 2
        ? { v8: trend(v8), buffers: trend(buffers), native: trend(native) }
        : undefined,
    fds: span(pts((x) => x.fds)),
    loopP99Ms: percentile(sorted, 50),
    loopMaxMs: maxOf(samples.map((x) => x.loopMaxMs).filter(Number.isFinite)),
  };
}

interface Trend {
  first: number;
  last: number;
  slope: number;
}

const trend = (points: Point[]): Trend => {
  const { first, last } = span(points);
  return { first, last, slope: slopePerHour(points) };
};

const maxOf = (v: readonly number[]) => (v.length === 0 ? NaN : Math.max(...v));

export interface Verdict {
  line: string;
  /** False when a judged target is missed. */
  ok: boolean;
}

const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '-');
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');

/** One line per incarnation; targets judged only when it was sampled long enough. */
export function resourceLine(p: ProcessFigures, judge: boolean): Verdict {
  const fdGrowth = p.fds.last - p.fds.first;
  const heap = p.heap
    ? `heap ${f0(p.heap.first)} → ${f0(p.heap.last)} MB (${f1(p.heap.slope)} MB/h)`
    : 'heap -';
  const of = (name: string, x: Trend) =>
    `${name} ${f0(x.first)} → ${f0(x.last)} MB (${f1(x.slope)} MB/h)`;
  const parts = p.parts
    ? `; of RSS: ${of('V8 heap', p.parts.v8)}, ${of('buffers', p.parts.buffers)}, ${of('native', p.parts.native)}`
    : '';
  const line =
    `${p.label}: RSS ${f0(p.rss.first)} → ${f0(p.rss.last)} MB (${f1(p.rss.slope)} MB/h), ` +
    `${heap}, fds ${f0(p.fds.first)} → ${f0(p.fds.last)} (max ${f0(p.fds.max)}), ` +
    `event-loop p99 ${f1(p.loopP99Ms)} ms (max ${f0(p.loopMaxMs)} ms) over ${f1(p.spanMs / 60_000)} min${parts}`;
  const long = p.spanMs >= JUDGED_AFTER_MS;
  if (!judge || !long)
    return { line: `${line} [not judged: ${long ? 'no target' : 'too short'}]`, ok: true };
  // The live heap is the leak measure where there is one; RSS (a JVM's, say) otherwise.
  const slope = p.heap ? Math.max(p.heap.slope, p.rss.slope) : p.rss.slope;
  const ok = slope < SLOPE_TARGET_MB_H && fdGrowth <= FD_TOLERANCE;
  return { line: `${line} ${ok ? 'PASS' : 'FAIL'}`, ok };
}
