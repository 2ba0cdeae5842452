/**
 * The arithmetic of what the benchmark's processes use: memory of process
 * trees under load and per Chromium page, and CPU shares between two
 * snapshots. Apart from any I/O (procfs.ts and cpu.ts read /proc).
 */
import { percentile } from '../common.js';

export interface Memory {
  /** Sum of VmRSS over a process tree, KiB (shared pages counted once per process). */
  rss: number;
  /** Sum of Pss over the tree, KiB (shared pages divided among their users). */
  pss: number;
  processes: number;
  renderers: number;
}

export const NO_MEMORY: Memory = { rss: 0, pss: 0, processes: 0, renderers: 0 };

export function sumMemory(list: readonly Memory[]): Memory {
  return list.reduce(
    (a, b) => ({
      rss: a.rss + b.rss,
      pss: a.pss + b.pss,
      processes: a.processes + b.processes,
      renderers: a.renderers + b.renderers,
    }),
    NO_MEMORY,
  );
}

export interface Loaded {
  /** The most pages seen running at once. */
  pages: number;
  /** Samples taken at that many pages. */
  samples: number;
  /** Median of each measure over those samples. */
  median: Memory;
}

/** Memory under full load: the median over the samples taken with the most pages running. */
export function loadedMemory(samples: readonly { m: Memory; running: number }[]): Loaded {
  const pages = Math.max(0, ...samples.map((x) => x.running).filter(Number.isFinite));
  const full = samples.filter((x) => x.running === pages && pages > 0);
  const med = (f: (m: Memory) => number) =>
    percentile(
      full.map((x) => f(x.m)).sort((p, q) => p - q),
      50,
    );
  return {
    pages,
    samples: full.length,
    median: {
      rss: med((m) => m.rss),
      pss: med((m) => m.pss),
      processes: med((m) => m.processes),
      renderers: med((m) => m.renderers),
    },
  };
}

/** Memory per page: (loaded - baseline) / pages, KiB (one page at least, so no division by 0). */
export function perPage(loaded: Memory, baseline: Memory, pages: number): Memory {
  const n = Math.max(1, pages);
  return {
    rss: (loaded.rss - baseline.rss) / n,
    pss: (loaded.pss - baseline.pss) / n,
    processes: (loaded.processes - baseline.processes) / n,
    renderers: (loaded.renderers - baseline.renderers) / n,
  };
}

/** CPU used by named processes between two snapshots, milliseconds. */
export interface CpuSnapshot {
  at: number;
  /** This process's own CPU (process.cpuUsage()), microseconds. */
  self: { user: number; system: number };
  /** Busy and total clock ticks of the whole machine. */
  machine: { busy: number; total: number };
  /** CPU ticks of each named process tree. */
  trees: Map<string, number>;
}

export interface CpuShares {
  /** Each tree seen in both snapshots, milliseconds, in the later snapshot's order. */
  trees: [string, number][];
  selfMs: number;
  /** Share of the machine's ticks that were busy, 0..1. */
  machineBusy: number;
  /** Busy machine time that none of our processes used, milliseconds. */
  outsideMs: number;
  elapsedMs: number;
}

export function cpuShares(a: CpuSnapshot, b: CpuSnapshot, clkTck: number): CpuShares {
  const ms = (ticks: number) => (ticks * 1000) / clkTck;
  const trees: [string, number][] = [];
  for (const [name, t] of b.trees) {
    const before = a.trees.get(name);
    if (before !== undefined) trees.push([name, ms(t - before)]);
  }
  const selfMs = (b.self.user - a.self.user + b.self.system - a.self.system) / 1000;
  const busy = b.machine.busy - a.machine.busy;
  const total = b.machine.total - a.machine.total;
  const ours = selfMs + trees.reduce((x, [, v]) => x + v, 0);
  return {
    trees,
    selfMs,
    machineBusy: busy / Math.max(1, total),
    outsideMs: Math.max(0, ms(busy) - ours),
    elapsedMs: b.at - a.at,
  };
}
