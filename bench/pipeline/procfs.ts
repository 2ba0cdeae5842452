/**
 * What Linux's /proc says about processes and the machine: CPU ticks of a
 * process tree (exited children included), busy and total ticks of the
 * machine, and the memory of a tree (Chromium's renderers counted apart).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Memory } from './resources.js';

export const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

interface ProcStat {
  ppid: number;
  /** utime + stime, clock ticks. */
  own: number;
  /** cutime + cstime: children that exited and were waited for. */
  reaped: number;
}

/** The fields of a /proc/<pid>/stat line that we use. */
export function parseProcStat(text: string): ProcStat {
  // Fields after the command name, which may itself contain spaces and parentheses.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    ppid: Number(f[1]),
    own: Number(f[11]) + Number(f[12]),
    reaped: Number(f[13]) + Number(f[14]),
  };
}

function procStat(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  return procStat(pid) !== undefined;
}

/** The pid and every live descendant. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const st = procStat(pid);
    if (!st) continue;
    const list = children.get(st.ppid) ?? [];
    list.push(pid);
    children.set(st.ppid, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (!procStat(pid)) continue;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU ticks of a process alone (utime + stime). */
export function ownTicks(pid: number): number {
  return procStat(pid)?.own ?? NaN;
}

/** CPU ticks of a whole tree, exited-and-reaped descendants included. */
export function treeTicks(root: number): number {
  let sum = 0;
  for (const pid of processTree(root)) {
    const st = procStat(pid);
    if (st) sum += st.own + st.reaped;
  }
  return sum;
}

/** Busy and total ticks of the whole machine (the first line of /proc/stat). */
export function parseMachineTicks(statText: string): { busy: number; total: number } {
  const line = statText.split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: total - idle, total };
}

export function machineTicks(): { busy: number; total: number } {
  return parseMachineTicks(readFileSync('/proc/stat', 'utf8'));
}

export function treeMemory(root: number): Memory {
  const m: Memory = { rss: 0, pss: 0, processes: 0, renderers: 0 };
  for (const pid of processTree(root)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      m.rss += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      m.pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      m.processes += 1;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer'))
        m.renderers += 1;
    } catch {
      // The process ended while we read it.
    }
  }
  return m;
}
