import t from 'tap';
import type { PhaseResult } from '../../../../bench/pipeline/load.js';
import { pipelineOptions } from '../../../../bench/pipeline/options.js';
import { apiReport } from '../../../../bench/pipeline/report-api.js';
import { webReport } from '../../../../bench/pipeline/web.js';

const options = pipelineOptions({
  BENCH_MONGO_URL: 'mongodb://127.0.0.1:1/',
  BENCH_NATS_URL: 'nats://127.0.0.1:2',
  BENCH_SUBTASKS: '4',
  BENCH_NODES: '1',
  BENCH_CAPACITY: '2',
  BENCH_LATENCY_MS: '1000',
  BENCH_WEB_SUBTASKS: '4',
  BENCH_WEB_CAPACITY: '2',
})!;

/** Four sub tasks in one task on two slots: two waves of 1 s answers, recorded 50 ms after each. */
function phase(wallMs: number): PhaseResult {
  const at = 10_000;
  return {
    taskIds: ['t1'],
    submitStart: at,
    submitEnd: at + 100,
    submitMs: [100],
    submitDone: [at + 100],
    observedEnd: at + wallMs + 300,
    finalAt: at + wallMs,
    taskStatuses: { completed: 1 },
    subStatuses: { completed: 4 },
    retried: 0,
    errors: [],
    processing: [
      { t: at + 10, n: 2, ms: 4 },
      { t: at + 1010, n: 2, ms: 6 },
    ],
    tasks: [{ id: 't1', completedAt: at + wallMs }],
    subs: ['a', 'b', 'c', 'd'].map((prompt, i) => ({
      taskId: 't1',
      prompt,
      time: at + 150 + (i < 2 ? 1000 : 2000),
      node: 'crawler1-x',
    })),
  };
}

const requests = [0, 0, 1000, 1000].map((k) => ({ start: 10_100 + k, end: 11_100 + k }));
const promptEnds = ['a', 'b', 'c', 'd'].map((prompt, i) => ({ prompt, end: requests[i]!.end }));

t.test('API report: the headline figures and their verdict', async (t) => {
  const lines = apiReport({
    options,
    phase: phase(2100),
    requests,
    promptEnds,
    schedulerCpuMs: 20,
    clkTck: 100,
    cpu: 'api 0.10 s',
    nodeName: (id) => id.replace(/-x$/, ''),
  });
  const find = (prefix: string) => lines.find((l) => l.startsWith(prefix));
  t.equal(
    find('wall time'),
    'wall time 2.10 s (first submit to last task final; seen by the poller at 2.40 s)',
  );
  t.equal(find('ideal time'), 'ideal time 2.00 s (sub tasks x latency / capacity)');
  t.equal(find('ratio'), 'ratio ideal/wall 0.952 (target >= 0.95) MET');
  t.match(
    find('peak concurrency'),
    /^peak concurrency 2 platform requests in flight .*, 2 sub tasks processing/,
  );
  t.equal(
    find('scheduler CPU'),
    'scheduler CPU 5.000 ms per sub task (0.02 s over the run, /proc utime+stime, CLK_TCK 100)',
  );
  t.equal(find('final statuses'), 'final statuses: tasks completed 1; sub tasks completed 4');
  t.equal(
    find('result recorded'),
    'result recorded after its platform request ended: p50 50 ms, p90 50 ms, max 50 ms; last result recorded 50 ms after the last request ended',
  );
  t.equal(find('last result per crawler node'), 'last result per crawler node: crawler1 2.15 s');
  t.equal(
    find('start spread per wave'),
    'start spread per wave (p5-p95): wave 1 0 ms, wave 2 0 ms',
  );
  t.equal(find('retried'), 'retried sub tasks 0');
  t.equal(find('CPU during the run'), 'CPU during the run: api 0.10 s');

  const slow = apiReport({
    options,
    phase: phase(4000),
    requests,
    promptEnds,
    schedulerCpuMs: 0,
    clkTck: 100,
    cpu: '',
    nodeName: String,
  });
  t.ok(slow.includes('ratio ideal/wall 0.500 (target >= 0.95) NOT MET'));
});

t.test('web report: throughput against the ideal and memory per page', async (t) => {
  const mem = (mib: number, processes: number, renderers: number) => ({
    rss: mib * 1024,
    pss: (mib / 2) * 1024,
    processes,
    renderers,
  });
  const lines = webReport({
    options,
    phase: phase(2000),
    requests,
    idle: mem(200, 2, 0),
    warm: mem(400, 10, 0),
    samples: [
      { m: mem(600, 12, 2), running: 2 },
      { m: mem(500, 11, 1), running: 1 },
    ],
    cpu: 'web1 1.00 s',
  });
  t.ok(
    lines.includes(
      'sub tasks per minute 120.0 (wall 2.00 s; ideal 120/min = capacity x 60 s / latency; ratio 1.000)',
    ),
  );
  t.match(
    lines.find((l) => l.startsWith('memory per page')),
    /^memory per page 200 MiB RSS, 100 MiB PSS .* with 2 pages open/,
  );
  t.match(
    lines.find((l) => l.startsWith('marginal memory per page')),
    /^marginal memory per page 100 MiB RSS, 50 MiB PSS/,
  );
});
