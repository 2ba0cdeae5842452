/**
 * Export benchmark (issue 14): rows per second of
 * `GET …/task/{taskId}/export` in CSV, NDJSON and XLSX over a task of 2,500
 * answered sub tasks (2–4 KB answers, 3–5 references; bench/export/seed.ts),
 * and the peak RSS of each run. The api, tasks and users services run in
 * this process (one broker, as the embedded default), so the RSS is theirs
 * plus the client's, which counts the bytes and keeps none. `bash
 * bench/export.sh` starts a MongoDB-wire server and passes BENCH_MONGO_URL.
 * Options: --subtasks N (2500), --rounds N (3: the median round is printed).
 */
import { parseArgs } from 'node:util';
import { download, startBenchApi, type DownloadRun } from './embedded-api.js';
import { seedLargeTask } from './export/seed.js';

const { values } = parseArgs({
  options: {
    subtasks: { type: 'string', default: '2500' },
    rounds: { type: 'string', default: '3' },
  },
});
const SUB_TASKS = Number(values.subtasks);
const ROUNDS = Number(values.rounds);
if (!(SUB_TASKS >= 1 && ROUNDS >= 1)) throw new Error('--subtasks and --rounds must be at least 1');
const mongoUrl = process.env.BENCH_MONGO_URL;
if (!mongoUrl) {
  console.error('BENCH_MONGO_URL is not set: run `bash bench/export.sh` (it starts the server)');
  process.exit(2);
}
/** A run that hangs is a failure, not a figure. */
const WATCHDOG_MS = 10 * 60_000;
setTimeout(() => {
  console.error('export benchmark: watchdog fired');
  process.exit(3);
}, WATCHDOG_MS).unref();

const api = await startBenchApi(mongoUrl, 'export');

try {
  const seeded = Date.now();
  const taskId = await seedLargeTask(api.conn, api.userId, SUB_TASKS);
  const rssBefore = process.memoryUsage.rss();
  console.log(
    `== export of ${SUB_TASKS} sub tasks (seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s), median of ${ROUNDS} rounds`,
  );

  console.log(`RSS before the exports ${(rssBefore / 1024 / 1024).toFixed(0)} MB`);
  for (const format of ['csv', 'ndjson', 'xlsx'] as const) {
    const runs: DownloadRun[] = [];
    const path = `/api/business/monitor/task/${taskId}/export?format=${format}`;
    for (let round = 0; round < ROUNDS; round++) runs.push(await download(api, [path]));
    runs.sort((a, b) => a.seconds - b.seconds);
    const median = runs[Math.floor(runs.length / 2)]!;
    const peakRss = Math.max(...runs.map((r) => r.peakRss));
    console.log(
      `${format}: ${Math.round(SUB_TASKS / median.seconds)} rows per second (${SUB_TASKS} rows in ${median.seconds.toFixed(2)} s, ${(median.bytes / 1024 / 1024).toFixed(1)} MB), peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MB`,
    );
  }
} finally {
  await api.stop();
}
