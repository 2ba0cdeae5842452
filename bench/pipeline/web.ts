/**
 * b) The web channel: the API crawler nodes give way to web ones (Chromium
 * pages), a batch on `sandbox-web` runs through them, and their process trees'
 * memory is sampled under load. webReport turns the measurements into lines.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type mongoose from 'mongoose';
import type { ServiceBroker } from 'moleculer';
import { percentile } from '../common.js';
import type { Cluster, Node } from './cluster.js';
import { cpuReport, cpuSnapshot } from './cpu.js';
import { concurrencyOf, mean, type Interval } from './figures.js';
import { loadedMemory, perPage, sumMemory, type Memory } from './resources.js';
import { runPhase, type PhaseResult } from './load.js';
import type { PipelineOptions } from './options.js';
import { treeMemory } from './procfs.js';
import { fmtCounts, outcomeLine, s } from './format.js';

const now = () => performance.timeOrigin + performance.now();
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

export interface WebMeasurements {
  options: PipelineOptions;
  phase: PhaseResult;
  requests: readonly Interval[];
  /** Before Chromium started. */
  idle: Memory;
  /** After the run, Chromium still running with no page. */
  warm: Memory;
  samples: { m: Memory; running: number }[];
  cpu: string;
}

/** Replaces `apiNodes` with web crawler nodes and runs the web batch through them. */
export async function runWebPhase(input: {
  options: PipelineOptions;
  cluster: Cluster;
  probe: ServiceBroker;
  apiNodes: readonly Node[];
  env: Record<string, string>;
  base: string;
  token: string;
  db: mongoose.Connection;
  requests: readonly Interval[];
  /** Logs how long the step that just ended took. */
  phase: (name: string) => void;
}): Promise<WebMeasurements> {
  const { options: o, cluster, probe } = input;
  await Promise.all(input.apiNodes.map((n) => cluster.stop(n)));
  const webEnv = {
    ...input.env,
    SERVICES: 'crawler',
    CRAWLER_CAPACITY: String(o.webCapacity),
    CRAWLER_CHANNELS: 'web',
  };
  const web = Array.from({ length: o.nodes }, (_, i) => cluster.start(`web${i + 1}`, webEnv));
  await Promise.all(web.map((n) => cluster.ready(n)));
  await cluster.discovered(
    probe,
    web.map((n) => n.nodeId),
    input.apiNodes.map((n) => n.nodeId),
  );
  await sleep(1000);
  const memOf = () => sumMemory(web.map((n) => treeMemory(n.p.child.pid!)));
  const idle = memOf();
  input.phase('start web crawler nodes');

  const samples: WebMeasurements['samples'] = [];
  let lastSample = 0;
  const onSample = async () => {
    if (now() - lastSample < 1000) return;
    lastSample = now();
    const running = (
      await Promise.all(
        web.map((n) =>
          probe
            .call<{ running: number }, object>('crawler.status', {}, { nodeID: n.nodeId })
            .then((r) => r.running)
            .catch(() => NaN),
        ),
      )
    ).reduce((x, y) => x + y, 0);
    samples.push({ m: memOf(), running });
  };
  const webCapacity = o.nodes * o.webCapacity;
  const reqFrom = input.requests.length;
  const cpu0 = cpuSnapshot(cluster.nodes, o.dbPids);
  const phase = await runPhase({
    base: input.base,
    token: input.token,
    db: input.db,
    platform: 'sandbox-web',
    subtasks: o.webSubtasks,
    label: 'pipeline web',
    deadlineMs: Math.max(180_000, ((o.webSubtasks * o.latencyMs) / webCapacity) * 20),
    submitters: o.submitters,
    sampleMs: o.sampleMs,
    pollMs: o.pollMs,
    onSample,
  });
  const cpu1 = cpuSnapshot(cluster.nodes, o.dbPids);
  await sleep(2000);
  input.phase(`web channel run (${o.webSubtasks} sub tasks)`);
  return {
    options: o,
    phase,
    requests: input.requests.slice(reqFrom),
    idle,
    warm: memOf(),
    samples,
    cpu: cpuReport(cpu0, cpu1),
  };
}

export function webReport(m: WebMeasurements): string[] {
  const { options: o, phase: b, idle, warm } = m;
  const webCapacity = o.nodes * o.webCapacity;
  const wall = b.finalAt - b.submitStart;
  const perMin = (o.webSubtasks / wall) * 60_000;
  const idealPerMin = (webCapacity * 60_000) / Math.max(1, o.latencyMs);
  const conc = concurrencyOf(m.requests, b.submitStart, b.finalAt);
  const loaded = loadedMemory(m.samples);
  const l = loaded.median;
  const page = perPage(l, idle, loaded.pages);
  const marginal = perPage(l, warm, loaded.pages);
  return [
    '',
    '== b) web channel (sandbox-web, Chromium)',
    `sub tasks ${o.webSubtasks}, capacity ${o.nodes} nodes x ${o.webCapacity} pages = ${webCapacity}, ` +
      `platform latency ${o.latencyMs} ms`,
    `sub tasks per minute ${perMin.toFixed(1)} (wall ${s(wall)}; ideal ${idealPerMin.toFixed(0)}/min ` +
      `= capacity x 60 s / latency; ratio ${(perMin / idealPerMin).toFixed(3)})`,
    `memory per page ${mb(page.rss)} RSS, ${mb(page.pss)} PSS ` +
      `(crawler processes + Chromium, under load with ${loaded.pages} pages open minus idle before Chromium started)`,
    `marginal memory per page ${mb(marginal.rss)} RSS, ` +
      `${mb(marginal.pss)} PSS (minus idle with Chromium running, no page)`,
    `memory: idle ${mb(idle.rss)} RSS / ${mb(idle.pss)} PSS (${idle.processes} processes); ` +
      `loaded (median of ${loaded.samples} samples at ${loaded.pages} pages) ${mb(l.rss)} RSS / ${mb(l.pss)} PSS, ` +
      `${l.processes} processes, ${l.renderers} renderers; ` +
      `after the run ${mb(warm.rss)} RSS / ${mb(warm.pss)} PSS (${warm.processes} processes, ${warm.renderers} renderers)`,
    `peak concurrency ${conc.peak} /web/chat streams at the sandbox; chat stream p50 ` +
      `${percentile(conc.durations, 50).toFixed(0)} ms, mean ${mean(conc.durations).toFixed(0)} ms; ` +
      `mean in flight ${conc.mean.toFixed(1)}`,
    `final statuses: tasks ${fmtCounts(b.taskStatuses)}; sub tasks ${fmtCounts(b.subStatuses)}`,
    outcomeLine(b),
    `CPU during the run: ${m.cpu}`,
  ];
}
