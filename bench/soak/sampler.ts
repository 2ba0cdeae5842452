/**
 * Samples every process of the soak: RSS and open file descriptors from
 * /proc, and for the Node processes the live heap after a forced collection
 * and the event-loop delay, which the preloaded probe (probe.mjs) writes on
 * SIGUSR2. The MongoDB-wire server's live heap too, after a full collection
 * that `jcmd` asks of its JVM (once a minute at most: jcmd starts a JVM of its
 * own), and its data file size. Each process
 * incarnation (a pid) has its own series, so a restarted node starts afresh.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { treeMemory } from '../pipeline/procfs.js';

export interface Watched {
  name: string;
  pid: number;
  /** A node with the probe preloaded, a JVM that jcmd can ask, or only /proc to read (NATS). */
  probe: 'node' | 'jvm' | 'none';
}

export interface Sample {
  at: number;
  /** This process alone, bytes. */
  rss: number;
  /** The process and its descendants (Chromium's for a crawler node), bytes. */
  treeRss: number;
  fds: number;
  /** After a forced collection; NaN for an unprobed process or a probe that did not answer. */
  heapUsed: number;
  /** V8's committed heap and the memory of Buffers and other objects outside it (Node only, else NaN). */
  heapTotal: number;
  external: number;
  loopP99Ms: number;
  loopMaxMs: number;
  gcMs: number;
}

export interface Series {
  name: string;
  pid: number;
  samples: Sample[];
}

/** A sample that writes a heap snapshot first takes seconds. */
const PROBE_WAIT_MS = 30_000;

export class Sampler {
  readonly series: Series[] = [];
  readonly dbFileBytes: { at: number; value: number }[] = [];

  constructor(
    private readonly probeDir: string,
    private readonly dbFile: string | undefined,
  ) {}

  /** One sample of every process in `watched`, side by side. */
  async sample(watched: readonly Watched[]): Promise<void> {
    await Promise.all(watched.map((w) => this.sampleOne(w)));
    if (this.dbFile) {
      try {
        this.dbFileBytes.push({ at: Date.now(), value: statSync(this.dbFile).size });
      } catch {
        // Not written yet.
      }
    }
  }

  private async sampleOne(w: Watched): Promise<void> {
    const probe =
      w.probe === 'node'
        ? await this.probe(w.pid)
        : w.probe === 'jvm'
          ? await this.jvmHeap(w.pid)
          : undefined;
    const rss = statusKb(w.pid, 'VmRSS') * 1024;
    const fds = fdCount(w.pid);
    if (Number.isNaN(rss) || Number.isNaN(fds)) return; // gone (a kill between the list and now)
    let s = this.series.find((x) => x.pid === w.pid);
    if (!s) {
      s = { name: w.name, pid: w.pid, samples: [] };
      this.series.push(s);
    }
    s.samples.push({
      at: Date.now(),
      rss,
      treeRss: treeMemory(w.pid).rss * 1024,
      fds,
      heapUsed: probe?.heapUsed ?? NaN,
      heapTotal: probe?.heapTotal ?? NaN,
      external: probe?.external ?? NaN,
      loopP99Ms: probe?.loopP99Ms ?? NaN,
      loopMaxMs: probe?.loopMaxMs ?? NaN,
      gcMs: probe?.gcMs ?? NaN,
    });
  }

  private jvmAskedAt = new Map<number, number>();

  /** Once a minute at most; NaN in between (and where jcmd is missing). */
  private async jvmHeap(pid: number): Promise<ProbeLine | undefined> {
    const now = Date.now();
    if (now - (this.jvmAskedAt.get(pid) ?? -Infinity) < JVM_EVERY_MS) return undefined;
    this.jvmAskedAt.set(pid, now);
    await jcmd(pid, 'GC.run');
    const heapUsed = jvmHeapUsed(await jcmd(pid, 'GC.heap_info'));
    return { heapUsed, heapTotal: NaN, external: NaN, gcMs: NaN, loopP99Ms: NaN, loopMaxMs: NaN };
  }

  /** Signals the probe and waits for its new line. */
  private async probe(pid: number): Promise<ProbeLine | undefined> {
    const file = join(this.probeDir, `${pid}.jsonl`);
    const before = lineCount(file);
    try {
      process.kill(pid, 'SIGUSR2');
    } catch {
      return undefined;
    }
    const deadline = Date.now() + PROBE_WAIT_MS;
    while (Date.now() < deadline) {
      await sleep(50);
      const lines = readLines(file);
      if (lines.length > before) return JSON.parse(lines[lines.length - 1]!) as ProbeLine;
    }
    return undefined;
  }
}

const JVM_EVERY_MS = 60_000;

/** The live heap of a JVM after a full collection: young plus tenured `used` of `jcmd GC.heap_info`. */
export function jvmHeapUsed(heapInfo: string): number {
  const used = [...heapInfo.matchAll(/generation\s+total \d+K, used (\d+)K/g)].map((m) =>
    Number(m[1]),
  );
  return used.length === 0 ? NaN : used.reduce((a, b) => a + b, 0) * 1024;
}

function jcmd(pid: number, command: string): Promise<string> {
  return new Promise((resolve) =>
    execFile('jcmd', [String(pid), command], { timeout: 30_000 }, (err, stdout) =>
      resolve(err ? '' : stdout),
    ),
  );
}

interface ProbeLine {
  heapUsed: number;
  heapTotal: number;
  external: number;
  gcMs: number;
  loopP99Ms: number;
  loopMaxMs: number;
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

const lineCount = (file: string) => readLines(file).length;

function statusKb(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

function fdCount(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}
