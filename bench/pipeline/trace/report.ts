/** Prints what the traced nodes measured (BENCH_TRACE=1): the ramp-up, then each node's slowest totals. */
import type { ServiceBroker } from 'moleculer';
import type { TraceStats } from './tally.js';

/** The ramp-up's steps in order: submission stored, scheduler told, first claim, lease taken, result settled. */
const RAMP_STEPS = [
  'handle tasks.submit',
  'event task.created',
  'db update subtasks',
  'handle crawler.accept',
  'handle tasks.settleBatch',
];
/** Rows printed per node. */
const ROWS = 14;

export async function traceAll(
  probe: ServiceBroker,
  nodeIds: readonly string[],
  action: 'reset' | 'stats',
): Promise<TraceStats[]> {
  return Promise.all(
    nodeIds.map((nodeID) => probe.call<TraceStats, object>(`benchTrace.${action}`, {}, { nodeID })),
  );
}

/** When each step first started on any node, after `from` (Infinity when never). */
export function rampUp(stats: readonly TraceStats[], from: number): [string, number][] {
  return RAMP_STEPS.map((name) => [
    name,
    Math.min(...stats.map((st) => st.firsts[name] ?? Infinity)) - from,
  ]);
}

export function printTrace(
  stats: readonly TraceStats[],
  from: number,
  out: (line: string) => void,
): void {
  out(
    '-- Moleculer tracing spans and MongoDB commands (BENCH_TRACE=1): name n p50/p90/max ms, per node',
  );
  out(
    `ramp-up, first start after the first submit: ${rampUp(stats, from)
      .map(([name, ms]) => `${name} +${ms.toFixed(0)} ms`)
      .join(', ')} (the first update of subtasks is a claim)`,
  );
  for (const st of stats) {
    const e = st.eventLoopDelay;
    out(
      `${st.node}: event loop delay p50 ${e.p50.toFixed(1)} ms, p99 ${e.p99.toFixed(1)} ms, max ${e.max.toFixed(0)} ms`,
    );
    const rows = Object.entries(st.samples).sort((a, b) => b[1].sum - a[1].sum);
    for (const [name, v] of rows.slice(0, ROWS)) {
      const digits = name.startsWith('leases per') ? 0 : 1;
      out(
        `  ${name}: n ${v.n}, ${v.p50.toFixed(digits)}/${v.p90.toFixed(digits)}/${v.max.toFixed(digits)}`,
      );
    }
  }
}
