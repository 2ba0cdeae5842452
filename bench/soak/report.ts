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
  rss: { first: number; last: number; slope: number };
  heap: { first: number; last: number; slope: number } | undefined;
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
  const loop = samples.map((x) => x.loopP99Ms).filter(Number.isFinite);
  const sorted = [...loop].sort((a, b) => a - b);
  return {
    label,
    spanMs: samples[samples.length - 1]!.at - samples[0]!.at,
    rss: { ...span(rss), slope: slopePerHour(rss) },
    heap: heap.length >= 2 ? { ...span(heap), slope: slopePerHour(heap) } : undefined,
    fds: span(pts((x) => x.fds)),
    loopP99Ms: percentile(sorted, 50),
    loopMaxMs: maxOf(samples.map((x) => x.loopMaxMs).filter(Number.isFinite)),
  };
}

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
  const line =
    `${p.label}: RSS ${f0(p.rss.first)} → ${f0(p.rss.last)} MB (${f1(p.rss.slope)} MB/h), ` +
    `${heap}, fds ${f0(p.fds.first)} → ${f0(p.fds.last)} (max ${f0(p.fds.max)}), ` +
    `event-loop p99 ${f1(p.loopP99Ms)} ms (max ${f0(p.loopMaxMs)} ms) over ${f1(p.spanMs / 60_000)} min`;
  const long = p.spanMs >= JUDGED_AFTER_MS;
  if (!judge || !long)
    return { line: `${line} [not judged: ${long ? 'no target' : 'too short'}]`, ok: true };
  // The live heap is the leak measure where there is one; RSS (a JVM's, say) otherwise.
  const slope = p.heap ? Math.max(p.heap.slope, p.rss.slope) : p.rss.slope;
  const ok = slope < SLOPE_TARGET_MB_H && fdGrowth <= FD_TOLERANCE;
  return { line: `${line} ${ok ? 'PASS' : 'FAIL'}`, ok };
}
