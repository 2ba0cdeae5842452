/**
 * Evidence bundle benchmark (issue 24): sub tasks per second of
 * `GET …/task/result/{taskId}/evidence` (the whole task, streamed) and of
 * one-by-one `GET …/task/result/{taskId}/{subTaskId}/evidence`, over a task
 * of answered sub tasks with raw frames and screenshots
 * (bench/evidence/seed.ts), with the peak RSS of the whole-task runs. The
 * api, tasks and users services run in this process, as the embedded default.
 * Needs BENCH_MONGO_URL. Options: --subtasks N (500), --rounds N (3: the
 * median round is printed), --frames BYTES (50000 per web sub task),
 * --single N (50 one-by-one bundles).
 */
import { parseArgs } from 'node:util';
import { subTaskIdFor } from '../services/shared/ids.js';
import { download, startBenchApi, type DownloadRun } from './embedded-api.js';
import { seedEvidenceTask } from './evidence/seed.js';

const { values } = parseArgs({
  options: {
    subtasks: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    frames: { type: 'string', default: '50000' },
    single: { type: 'string', default: '50' },
  },
});
const SUB_TASKS = Number(values.subtasks);
const ROUNDS = Number(values.rounds);
const FRAME_BYTES = Number(values.frames);
const SINGLE = Math.min(Number(values.single), SUB_TASKS);
if (!(SUB_TASKS >= 1 && ROUNDS >= 1 && FRAME_BYTES >= 0 && SINGLE >= 1))
  throw new Error('--subtasks, --rounds and --single must be at least 1');
const mongoUrl = process.env.BENCH_MONGO_URL;
if (!mongoUrl) {
  console.error('BENCH_MONGO_URL is not set (a MongoDB-wire server, e.g. the test one)');
  process.exit(2);
}
/** A run that hangs is a failure, not a figure. */
setTimeout(() => {
  console.error('evidence benchmark: watchdog fired');
  process.exit(3);
}, 10 * 60_000).unref();

const api = await startBenchApi(mongoUrl, 'evidence');
const M = '/api/business/monitor';

try {
  const seeded = Date.now();
  const taskId = await seedEvidenceTask(api.conn, api.userId, SUB_TASKS, FRAME_BYTES, 40_000);
  console.log(
    `== evidence bundles of ${SUB_TASKS} sub tasks (seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s), median of ${ROUNDS} rounds`,
  );
  const w = await median(ROUNDS, () => download(api, [`${M}/task/result/${taskId}/evidence`]));
  console.log(
    `whole task: ${Math.round(SUB_TASKS / w.seconds)} sub tasks per second (${SUB_TASKS} in ${w.seconds.toFixed(2)} s, ${(w.bytes / 1024 / 1024).toFixed(1)} MB), peak RSS ${(w.peakRss / 1024 / 1024).toFixed(0)} MB`,
  );
  const paths = Array.from(
    { length: SINGLE },
    (_, seq) => `${M}/task/result/${taskId}/${subTaskIdFor(taskId, seq)}/evidence`,
  );
  const s = await median(ROUNDS, () => download(api, paths));
  console.log(
    `one by one: ${Math.round(SINGLE / s.seconds)} sub tasks per second (${SINGLE} bundles in ${s.seconds.toFixed(2)} s)`,
  );
} finally {
  await api.stop();
}

async function median(rounds: number, run: () => Promise<DownloadRun>): Promise<DownloadRun> {
  const runs: DownloadRun[] = [];
  for (let i = 0; i < rounds; i++) runs.push(await run());
  runs.sort((a, b) => a.seconds - b.seconds);
  return {
    ...runs[Math.floor(runs.length / 2)]!,
    peakRss: Math.max(...runs.map((r) => r.peakRss)),
  };
}
