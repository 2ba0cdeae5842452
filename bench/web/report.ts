/** The web benchmark's figures as lines, with their targets and verdicts. */
import { percentile } from '../common.js';
import type { PhaseResult } from '../pipeline/load.js';
import { fmtCounts, outcomeLine, s } from '../pipeline/format.js';
import { ascending, marginalPerPage, median, type SubTaskTiming } from './figures.js';
import type { MemoryFigures } from './memory.js';
import type { WebBenchOptions } from './options.js';
import type { WitnessCost } from './witness-cost.js';

export const OVERHEAD_TARGET_MS = 1000;
export const MEMORY_TARGET_MIB = 80;
/** The stream-versus-page comparison per answer, its DOM read included. */
export const WITNESS_TARGET_MS = 50;

const mib = (kb: number) => kb / 1024;
const pair = (v: readonly number[]) => {
  const a = ascending(v);
  return `${percentile(a, 50).toFixed(0)} / ${percentile(a, 90).toFixed(0)} ms`;
};
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

export function webBenchReport(input: {
  options: WebBenchOptions;
  replicaUrl: string;
  phase: PhaseResult;
  timings: SubTaskTiming[];
  unpaired: number;
  /** The unmeasured warm-up: each account's first sub task on the node. */
  warmup: SubTaskTiming[];
  memory: MemoryFigures;
  /** The witnesses' cost of each measured answer, ms (bench/web/witness-cost.ts). */
  witness?: readonly WitnessCost[];
}): string[] {
  const { options: o, phase: b, timings, memory: m } = input;
  const wall = b.finalAt - b.submitStart;
  const perMin = (o.subtasks / wall) * 60_000;
  const wallMs = ascending(timings.map((t) => t.wallMs));
  const answerMs = ascending(timings.map((t) => t.answerMs));
  const overhead = ascending(timings.map((t) => t.overheadMs));
  const p50 = percentile(overhead, 50);
  const p90 = percentile(overhead, 90);
  const idealPerMin = (o.accounts * 60_000) / Math.max(1, median(answerMs));
  const extra = m.morePages - m.basePages;
  const pss = mib(marginalPerPage(m.base.pss, m.more.pss, extra));
  const rss = mib(marginalPerPage(m.base.rss, m.more.rss, extra));
  return [
    `== web channel on the ${o.platform} replica (${input.replicaUrl}, loopback)`,
    `set-up: one crawler node, capacity ${o.accounts}, ${o.accounts} logged-in ${o.platform} accounts ` +
      `(no region, no proxy); ${o.subtasks} sub tasks (mode standard, screenshot 0) in tasks of up to 50 prompts; ` +
      `replica frame latency ${o.frameLatencyMs} ms; ` +
      `${o.keptPages > 0 ? `up to ${o.keptPages} account pages kept between sub tasks` : 'a fresh page per sub task (--kept-pages 0)'}; pacing gap 0 (${o.platform.toUpperCase()}_WEB_GAP_MS=0, ` +
      `WEB_GAP_JITTER=0; on the real site the pace is the operator's gap, so this is the node's ceiling, not a site rate)`,
    '',
    `1) sub tasks per minute ${perMin.toFixed(1)} (wall ${s(wall)}, first submit to task final; ` +
      `at the replica's median answer time an account-bound ceiling is ${idealPerMin.toFixed(0)}/min = ` +
      `${o.accounts} accounts x 60 s / ${median(answerMs).toFixed(0)} ms)`,
    `2) driver overhead per sub task (wall on the crawler, lease in to report out, minus the replica's ` +
      `own time for that sub task's chat call): p50 ${p50.toFixed(0)} ms, p90 ${p90.toFixed(0)} ms, ` +
      `max ${(overhead[overhead.length - 1] ?? NaN).toFixed(0)} ms (target: the median < ${OVERHEAD_TARGET_MS} ms) ` +
      `${verdict(p50 < OVERHEAD_TARGET_MS)}`,
    `   over ${timings.length} answered sub tasks (${input.unpaired} unpaired); wall p50 ` +
      `${percentile(wallMs, 50).toFixed(0)} ms, p90 ${percentile(wallMs, 90).toFixed(0)} ms; ` +
      `replica answer p50 ${percentile(answerMs, 50).toFixed(0)} ms, p90 ${percentile(answerMs, 90).toFixed(0)} ms`,
    `   overhead by step (p50 / p90): lease in -> account checkout asked ${pair(timings.map((t) => t.toCheckoutMs))}; ` +
      `-> first request at the site (checkout, navigation; a browser context for an account's first page only) ${pair(timings.map((t) => t.toFirstRequestMs))}; ` +
      `-> chat call sent (page load, the site's script, mode switches, typing) ${pair(timings.map((t) => t.toChatMs))}; ` +
      `chat answered -> report out (stream end, evidence, account release, report) ${pair(timings.map((t) => t.afterChatMs))}`,
    `   not in these figures: the warm-up before the batch, each account's first sub task on the node ` +
      `(${input.warmup.length} answered; its page opened): overhead p50 ` +
      `${percentile(ascending(input.warmup.map((t) => t.overheadMs)), 50).toFixed(0)} ms, max ` +
      `${Math.max(...input.warmup.map((t) => t.overheadMs)).toFixed(0)} ms`,
    `3) marginal memory per logged-in account context ${pss.toFixed(1)} MiB PSS, ${rss.toFixed(1)} MiB RSS ` +
      `(target < ${MEMORY_TARGET_MIB} MiB PSS) ${verdict(pss < MEMORY_TARGET_MIB)}`,
    `   Chromium tree with ${m.basePages} account pages ${mib(m.base.pss).toFixed(0)} MiB PSS ` +
      `(${m.base.processes} processes, ${m.base.renderers} renderers), with ${m.morePages} ` +
      `${mib(m.more.pss).toFixed(0)} MiB PSS (${m.more.processes} processes, ${m.more.renderers} renderers); ` +
      `(PSS ${m.morePages} - PSS ${m.basePages}) / ${extra}; the crawler's BrowserRunner, each page its own ` +
      `account identity on the chat page, logged in, each count in a fresh browser; median of 3 reads after 3 s`,
    ...witnessLines(input.witness ?? [], timings.length),
    '',
    `final statuses: tasks ${fmtCounts(b.taskStatuses)}; sub tasks ${fmtCounts(b.subStatuses)}`,
    outcomeLine(b),
  ];
}

/** 4) The stream-versus-page comparison per answer, its DOM read included. */
function witnessLines(costs: readonly WitnessCost[], answers: number): string[] {
  if (costs.length === 0) return [`4) stream-versus-page comparison: no answer noted its cost`];
  const a = ascending(costs.map((c) => c.ms));
  const once = costs.filter((c) => c.reads === 1);
  const onceMs = ascending(once.map((c) => c.ms));
  const p50 = percentile(a, 50);
  return [
    `4) stream-versus-page comparison per answer (the rendered answer read and compared with the ` +
      `stream's, crawler/web/witness.ts; from each answer's evidence, ${costs.length} of ${answers}): ` +
      `p50 ${p50.toFixed(1)} ms, p90 ${percentile(a, 90).toFixed(1)} ms, max ${a[a.length - 1]!.toFixed(1)} ms ` +
      `(target: the median under ${WITNESS_TARGET_MS} ms) ${verdict(percentile(a, 50) < WITNESS_TARGET_MS)}`,
    `   ${once.length} of ${costs.length} agreed at the first read (p50 ${percentile(onceMs, 50).toFixed(1)} ms); ` +
      `the others waited for the page to draw the stream's last chunk`,
  ];
}
