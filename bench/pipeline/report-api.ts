/**
 * The lines the API-channel phase prints, from what it measured. Pure: the
 * caller gathers the measurements and prints the lines.
 */
import { percentile } from '../common.js';
import {
  concurrencyOf,
  idealMs,
  lagsOf,
  lastResultByNode,
  maxPerSecond,
  mean,
  slotCycleMs,
  storedPerStep,
  waveSpreads,
  type Interval,
} from './figures.js';
import { dist, fmtCounts, outcomeLine, s } from './format.js';
import { PROMPTS_PER_TASK, type PhaseResult } from './load.js';
import type { PipelineOptions } from './options.js';

/** The ratio the pipeline aims at (ideal / wall). */
export const TARGET_RATIO = 0.95;
/** The ramp-up is shown in finer steps than the rest, over its first seconds. */
const RAMP_STEP_MS = 250;
const RAMP_MS = 4000;

export interface ApiMeasurements {
  options: PipelineOptions;
  phase: PhaseResult;
  /** The phase's platform requests, in arrival order. */
  requests: readonly Interval[];
  /** The end of each of those requests with its prompt. */
  promptEnds: readonly { prompt: string; end: number }[];
  schedulerCpuMs: number;
  clkTck: number;
  /** cpuReport's line for the phase. */
  cpu: string;
  nodeName: (nodeId: string) => string;
}

export function apiReport(m: ApiMeasurements): string[] {
  const { options: o, phase: a, requests } = m;
  const capacity = o.nodes * o.capacity;
  const wall = a.finalAt - a.submitStart;
  const ideal = idealMs(o.subtasks, o.latencyMs, capacity);
  const ratio = ideal / wall;
  const conc = concurrencyOf(requests, a.submitStart, a.finalAt);
  const leasedPeak = Math.max(0, ...a.processing.map((p) => p.n).filter(Number.isFinite));
  const sampleMs = a.processing.map((p) => p.ms).sort((x, y) => x - y);
  const meanDur = mean(conc.durations);
  const cycle = slotCycleMs(wall, capacity, o.subtasks);
  const submitSorted = [...a.submitMs].sort((x, y) => x - y);
  const firstWave = requests
    .slice(0, capacity)
    .map((r) => r.start - a.submitStart)
    .sort((x, y) => x - y);
  const lags = lagsOf(m.promptEnds, a.subs, a.tasks);
  const ramp = concurrencyOf(requests, a.submitStart, a.submitStart + RAMP_MS, RAMP_STEP_MS);
  const stored = storedPerStep(
    a.submitDone,
    a.submitStart,
    ramp.perStep.length,
    RAMP_STEP_MS,
    PROMPTS_PER_TASK,
    o.subtasks,
  );
  return [
    '',
    '== a) API channel (sandbox)',
    `sub tasks ${o.subtasks} (${a.taskIds.length} tasks of up to ${PROMPTS_PER_TASK} prompts x 1 platform), ` +
      `capacity ${o.nodes} nodes x ${o.capacity} = ${capacity} (prefetch ${o.prefetch} each), ` +
      `platform latency ${o.latencyMs} ms, after a warm-up of ${o.warmup} sub tasks, ` +
      `${o.streamWrites || 'one write per piece of'} writes per answer stream`,
    `wall time ${s(wall)} (first submit to last task final; seen by the poller at ${s(a.observedEnd - a.submitStart)})`,
    `ideal time ${s(ideal)} (sub tasks x latency / capacity)`,
    `ratio ideal/wall ${ratio.toFixed(3)} (target >= ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'MET' : 'NOT MET'}`,
    `peak concurrency ${conc.peak} platform requests in flight at the sandbox (exact), ` +
      `${leasedPeak} sub tasks processing in MongoDB (sampled every ${o.sampleMs} ms, ` +
      `${a.processing.length} samples, count p50 ${percentile(sampleMs, 50).toFixed(1)} ms)`,
    `scheduler CPU ${(m.schedulerCpuMs / o.subtasks).toFixed(3)} ms per sub task ` +
      `(${s(m.schedulerCpuMs)} over the run, /proc utime+stime, CLK_TCK ${m.clkTck})`,
    `final statuses: tasks ${fmtCounts(a.taskStatuses)}; sub tasks ${fmtCounts(a.subStatuses)}`,
    '-- where the time goes',
    `submits: ${a.submitMs.length} by ${o.submitters} clients side by side in ${s(a.submitEnd - a.submitStart)}, ` +
      `p50 ${percentile(submitSorted, 50).toFixed(0)} ms, max ${submitSorted[submitSorted.length - 1]!.toFixed(0)} ms`,
    `platform requests ${conc.requests}: duration p50 ${percentile(conc.durations, 50).toFixed(0)} ms, ` +
      `p99 ${percentile(conc.durations, 99).toFixed(0)} ms, max ${conc.durations[conc.durations.length - 1]!.toFixed(0)} ms, ` +
      `mean ${meanDur.toFixed(0)} ms (asked ${o.latencyMs} ms)`,
    `mean in flight ${conc.mean.toFixed(1)} of ${capacity} (${((conc.mean / capacity) * 100).toFixed(1)}% utilisation); ` +
      `mean slot cycle ${cycle.toFixed(0)} ms = request ${meanDur.toFixed(0)} ms + ` +
      `${(cycle - meanDur).toFixed(0)} ms between requests (claim, send, report, settle, redispatch)`,
    // How fast the first full wave started (every slot's first request).
    `first ${firstWave.length} platform requests started after the first submit: ` +
      [10, 25, 50, 75, 90, 100]
        .map((p) => `p${p} ${percentile(firstWave, p).toFixed(0)} ms`)
        .join(', '),
    `first platform request ${(conc.firstStart - a.submitStart).toFixed(0)} ms after the first submit; ` +
      `last one ended ${(a.finalAt - conc.lastEnd).toFixed(0)} ms before the last task was final`,
    `result recorded after its platform request ended: ${dist(lags.settle)}; ` +
      `last result recorded ${(lags.lastRecorded - conc.lastEnd).toFixed(0)} ms after the last request ended`,
    `task final after its last result: ${dist(lags.finish)}`,
    // A node left holding waiting leases while another has run out lengthens the last wave.
    `last result per crawler node: ${[...lastResultByNode(a.subs)]
      .map(([id, at]) => `${m.nodeName(id)} ${s(at - a.submitStart)}`)
      .join(', ')}`,
    `in flight per second: ${conc.perStep.map((v) => v.toFixed(0)).join(' ')}`,
    `start spread per wave (p5-p95): ${waveSpreads(
      requests.map((r) => r.start),
      capacity,
    )
      .map((w) => `wave ${w.wave} ${w.ms.toFixed(0)} ms`)
      .join(', ')}`,
    // The ramp-up in finer steps: work starts while the batch is still being submitted.
    `ramp-up per ${RAMP_STEP_MS} ms, in flight (sub tasks stored): ${ramp.perStep
      .map((v, k) => `${v.toFixed(0)} (${stored[k]})`)
      .join(' ')}`,
    `processing in MongoDB, max per second: ${maxPerSecond(a.processing, a.submitStart)
      .map((v) => v ?? '-')
      .join(' ')}`,
    outcomeLine(a),
    `CPU during the run: ${m.cpu}`,
  ];
}
