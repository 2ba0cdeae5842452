/**
 * A whole-task evidence bundle of 200 sub tasks (100 web ones with 200 KB of
 * raw frames each, 100 with a 60 KB screenshot) streams: the api's live heap
 * grows by less than a fixed bound while the 26 MB archive is read and thrown
 * away, so memory does not follow the task's size. The api runs embedded and
 * the test samples its own heap (test/helpers/heap-growth.ts).
 */
import t from 'tap';
import { seedEvidenceTask } from '../../../bench/evidence/seed.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { downloadHeapGrowth, mb } from '../../helpers/heap-growth.js';

t.setTimeout(120_000);
const SUB_TASKS = 200;
/** Live heap growth allowed while bundling (the archive is five times this or more). */
const BOUND_BYTES = 5 * 1024 * 1024;

const svc = await startEmbedded(t);
const user = await svc.newUser('evidence');
const taskId = await seedEvidenceTask(await svc.db(), user.userId, SUB_TASKS, 200_000, 60_000);

t.test(`a bundle of ${SUB_TASKS} sub tasks streams with flat memory`, async (t) => {
  const url = `${svc.client.baseUrl}/api/business/monitor/task/result/${taskId}/evidence`;
  const run = await downloadHeapGrowth(url, user.token);
  t.comment(`bundle: ${mb(run.bytes)}, live heap growth ${mb(run.peak)}`);
  t.ok(run.bytes > 5 * BOUND_BYTES, `the archive (${mb(run.bytes)}) is well above the bound`);
  t.ok(run.peak < BOUND_BYTES, `${mb(run.peak)} < ${mb(BOUND_BYTES)}`);
});
