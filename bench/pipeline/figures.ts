/**
 * The pipeline benchmark's arithmetic, apart from any I/O: concurrency from
 * request intervals, wave start spreads, lags between the sandbox and the
 * database, ramp-up and per-second series. Times are epoch milliseconds unless
 * a name says otherwise. Memory and CPU arithmetic is in resources.ts.
 */
import { percentile } from '../common.js';

/** One platform request as the sandbox saw it; `end` is unset while it runs. */
export interface Interval {
  start: number;
  end?: number;
}

export interface Concurrency {
  requests: number;
  peak: number;
  /** Time-weighted mean of requests in flight between `from` and `to`. */
  mean: number;
  /** Durations, ascending (a request still running ends at `to`). */
  durations: number[];
  firstStart: number;
  lastEnd: number;
  /** Mean in flight per whole `stepMs` from `from`. */
  perStep: number[];
}

export function concurrencyOf(
  recs: readonly Interval[],
  from: number,
  to: number,
  stepMs = 1000,
): Concurrency {
  const events: [number, number][] = [];
  for (const r of recs) {
    events.push([r.start, 1]);
    events.push([r.end ?? to, -1]);
  }
  // Ends before starts at the same instant: back-to-back requests are not concurrent.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let level = 0;
  let peak = 0;
  for (const [, d] of events) {
    level += d;
    peak = Math.max(peak, level);
  }
  const steps = Math.max(1, Math.ceil((to - from) / stepMs));
  const perStep = new Array<number>(steps).fill(0);
  let area = 0;
  for (const r of recs) {
    const a = Math.max(r.start, from);
    const b = Math.min(r.end ?? to, to);
    if (b <= a) continue;
    area += b - a;
    for (let k = Math.floor((a - from) / stepMs); k < steps && from + k * stepMs < b; k++) {
      const lo = Math.max(a, from + k * stepMs);
      const hi = Math.min(b, from + (k + 1) * stepMs);
      if (hi > lo) perStep[k]! += (hi - lo) / stepMs;
    }
  }
  return {
    requests: recs.length,
    peak,
    mean: area / Math.max(1, to - from),
    durations: recs.map((r) => (r.end ?? to) - r.start).sort((x, y) => x - y),
    firstStart: Math.min(...recs.map((r) => r.start)),
    lastEnd: Math.max(...recs.map((r) => r.end ?? to)),
    perStep,
  };
}

export interface WaveSpread {
  /** 1-based. */
  wave: number;
  ms: number;
}

/**
 * How far apart the starts of each wave of `capacity` requests lie (p5 to p95,
 * in start order), for waves 1-3, the middle one and the last full one. The
 * last wave's spread is how long the final answers trickle in; it grows from
 * the ramp-up and from every cycle's jitter.
 */
export function waveSpreads(starts: readonly number[], capacity: number): WaveSpread[] {
  const sorted = [...starts].sort((x, y) => x - y);
  const waves = Math.floor(sorted.length / capacity);
  const shown = [...new Set([0, 1, 2, Math.floor(waves / 2), waves - 1])].filter(
    (k) => k >= 0 && k < waves,
  );
  return shown.map((k) => {
    const w = sorted.slice(k * capacity, (k + 1) * capacity);
    return { wave: k + 1, ms: percentile(w, 95) - percentile(w, 5) };
  });
}

/** A sub task's result as stored: `time` is when it was recorded (0: never). */
export interface SubResult {
  taskId: string;
  prompt: string;
  time: number;
  node: string;
}

export interface TaskEnd {
  id: string;
  completedAt: number;
}

export interface Lags {
  /** Sub task result recorded minus the end of its prompt's last platform request, ascending. */
  settle: number[];
  /** Task final (completedAt) minus its last sub task's result, ascending. */
  finish: number[];
  /** Last sub task result recorded. */
  lastRecorded: number;
}

/** `requestEnds` pairs each prompt with the end of one of its platform requests. */
export function lagsOf(
  requestEnds: readonly { prompt: string; end: number }[],
  subs: readonly SubResult[],
  tasks: readonly TaskEnd[],
): Lags {
  const endByPrompt = new Map<string, number>();
  for (const q of requestEnds) {
    endByPrompt.set(q.prompt, Math.max(q.end, endByPrompt.get(q.prompt) ?? 0));
  }
  const settle: number[] = [];
  const lastOfTask = new Map<string, number>();
  let lastRecorded = 0;
  for (const sub of subs) {
    const end = endByPrompt.get(sub.prompt);
    if (end !== undefined && sub.time > 0) settle.push(sub.time - end);
    lastOfTask.set(sub.taskId, Math.max(sub.time, lastOfTask.get(sub.taskId) ?? 0));
    lastRecorded = Math.max(lastRecorded, sub.time);
  }
  const finish = tasks.map((x) => x.completedAt - (lastOfTask.get(x.id) ?? x.completedAt));
  return {
    settle: settle.sort((x, y) => x - y),
    finish: finish.sort((x, y) => x - y),
    lastRecorded,
  };
}

/** The last result each crawler node recorded, in order of first appearance. */
export function lastResultByNode(subs: readonly SubResult[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const sub of subs) last.set(sub.node, Math.max(last.get(sub.node) ?? 0, sub.time));
  return last;
}

/** Tasks of at most `perTask` prompts that together hold `subtasks`. */
export function taskSizes(subtasks: number, perTask: number): number[] {
  const sizes: number[] = [];
  for (let left = subtasks; left > 0; left -= perTask) sizes.push(Math.min(perTask, left));
  return sizes;
}

/** The wall time a perfect pipeline would need: every slot busy with platform latency only. */
export function idealMs(subtasks: number, latencyMs: number, capacity: number): number {
  return (subtasks * latencyMs) / capacity;
}

/** Each slot's mean time from one platform request's start to the next one's. */
export function slotCycleMs(wallMs: number, capacity: number, subtasks: number): number {
  return (wallMs * capacity) / subtasks;
}

export function mean(values: readonly number[]): number {
  return values.reduce((x, y) => x + y, 0) / Math.max(1, values.length);
}

/** Sub tasks stored by the end of each ramp-up step, from when each submission was answered. */
export function storedPerStep(
  submitDone: readonly number[],
  from: number,
  steps: number,
  stepMs: number,
  perTask: number,
  total: number,
): number[] {
  return Array.from({ length: steps }, (_, k) =>
    Math.min(total, submitDone.filter((t) => t < from + (k + 1) * stepMs).length * perTask),
  );
}

/** The largest sample in each whole second from `from`; unsampled seconds are undefined. */
export function maxPerSecond(
  samples: readonly { t: number; n: number }[],
  from: number,
): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  for (const p of samples) {
    const k = Math.floor((p.t - from) / 1000);
    out[k] = Math.max(out[k] ?? 0, Number.isFinite(p.n) ? p.n : 0);
  }
  return Array.from(out);
}

/** How many of each value. */
export function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
