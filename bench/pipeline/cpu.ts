/** CPU of the cluster's nodes, the database servers and this process between two moments. */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { cpuShares, type CpuSnapshot } from './resources.js';
import type { Node } from './cluster.js';
import { CLK_TCK, isAlive, machineTicks, treeTicks } from './procfs.js';

export function cpuSnapshot(
  nodes: readonly Node[],
  dbPids: readonly { name: string; pid: number }[],
): CpuSnapshot {
  const trees = new Map<string, number>();
  for (const n of nodes) trees.set(n.name, treeTicks(n.p.child.pid!));
  for (const d of dbPids) if (isAlive(d.pid)) trees.set(d.name, treeTicks(d.pid));
  return {
    at: performance.timeOrigin + performance.now(),
    self: process.cpuUsage(),
    machine: machineTicks(),
    trees,
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function cpuReport(a: CpuSnapshot, b: CpuSnapshot): string {
  const c = cpuShares(a, b, CLK_TCK);
  const parts = c.trees.map(([name, ms]) => `${name} ${s(ms)}`);
  parts.push(`bench process (sandbox, client, samplers) ${s(c.selfMs)}`);
  return (
    `${parts.join(', ')}; machine ${(c.machineBusy * 100).toFixed(0)}% busy ` +
    `of ${availableParallelism()} cores over ${s(c.elapsedMs)}, of which processes outside this benchmark ` +
    `${s(c.outsideMs)}`
  );
}
