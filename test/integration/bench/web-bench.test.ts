/**
 * A tiny run of `npm run bench:web` against the test servers, so that a
 * benchmark that breaks fails the suite: a real cluster of child processes
 * (api, tasks, users and accounts; scheduler; one web crawler node of 2
 * pages), the DeepSeek replica, 2 accounts, 4 sub tasks, then the memory of
 * 1 and 2 account pages. It checks that the three figures are printed and
 * sane, not that they meet their targets (a busy machine decides those).
 */
import t from 'tap';
import { startProcess } from '../../../infra/processes.js';
import { mongoUrl, natsUrl } from '../../helpers/servers.js';

const SUBTASKS = 4;
const ACCOUNTS = 2;
/** Below the suite's 120 s per file; the bench's own watchdog is 10 min. */
const KILL_AFTER_MS = 110_000;

const number = (text: string, re: RegExp): number => {
  const m = re.exec(text);
  if (!m) throw new Error(`no ${re} in the bench's output:\n${text}`);
  return Number(m[1]);
};

t.test('the web benchmark runs end to end and prints its three figures', async (t) => {
  const bench = startProcess(
    'bench/web.bench.ts',
    [
      '--platform',
      'deepseek',
      '--subtasks',
      String(SUBTASKS),
      '--accounts',
      String(ACCOUNTS),
      '--frame-latency',
      '10',
      '--memory-base',
      '1',
      '--memory-extra',
      '1',
    ],
    { BENCH_MONGO_URL: mongoUrl(), BENCH_NATS_URL: natsUrl() },
  );
  const killer = setTimeout(() => void bench.stop('SIGKILL'), KILL_AFTER_MS);
  const code = await bench.exited;
  clearTimeout(killer);
  const out = bench.output();
  t.equal(code, 0, 'exits 0');
  // It builds what its nodes run (infra/build.ts), or finds the build current, before any starts.
  const built = /^build: (?:var\/build is current|var\/build compiled in [\d.]+ s)$/m.exec(out);
  t.ok(built, 'the build is made or found current');
  t.ok(built && built.index < out.indexOf('bench: start cluster'), 'before the cluster starts');

  t.match(out, /^== web channel on the deepseek replica \(http:\/\/127\.0\.0\.1:\d+, loopback\)$/m);
  t.match(out, `capacity ${ACCOUNTS}, ${ACCOUNTS} logged-in deepseek accounts`);
  t.match(out, 'pacing gap 0 (DEEPSEEK_WEB_GAP_MS=0');
  t.match(out, /^final statuses: tasks completed 1; sub tasks completed 4$/m);

  const perMin = number(out, /^1\) sub tasks per minute ([\d.]+) \(wall ([\d.]+) s/m);
  const wall = number(out, /^1\) sub tasks per minute [\d.]+ \(wall ([\d.]+) s/m);
  // The wall is printed to 10 ms: a short batch leaves the rate a percent of rounding.
  t.ok(
    Math.abs(perMin / ((SUBTASKS / wall) * 60) - 1) < 0.01,
    `${perMin}/min = ${SUBTASKS} / ${wall} s`,
  );

  const p50 = number(out, /^2\) driver overhead per sub task .*: p50 (-?\d+) ms/m);
  const p90 = number(out, /^2\) driver overhead per sub task .*, p90 (-?\d+) ms/m);
  t.ok(p50 > 0 && p90 >= p50 && p90 < 60_000, `overhead p50 ${p50} ms, p90 ${p90} ms`);
  t.match(out, /target: the median < 1000 ms\) (PASS|FAIL)$/m);
  t.match(
    out,
    /^ {3}not in these figures: the warm-up before the batch, each account's first sub task on the node \(2 answered; its page opened\): overhead p50 \d+ ms, max \d+ ms$/m,
  );
  t.equal(number(out, /^ {3}over (\d+) answered sub tasks \(0 unpaired\)/m), SUBTASKS);
  const answer = number(out, /replica answer p50 (\d+) ms/m);
  t.ok(answer > 0, `the replica's own answer time ${answer} ms is measured`);

  const pss = number(out, /^3\) marginal memory per logged-in account context (-?[\d.]+) MiB PSS/m);
  t.ok(pss > 0 && pss < 1024, `${pss} MiB PSS per account context`);
  t.match(out, /\(target < 80 MiB PSS\) (PASS|FAIL)$/m);
  t.match(out, /Chromium tree with 1 account pages \d+ MiB PSS .*, with 2 \d+ MiB PSS/m);
  t.match(out, /child warnings 0\)$/m);
});
