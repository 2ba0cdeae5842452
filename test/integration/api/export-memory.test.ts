/**
 * An export of a 2,500-sub-task task (2–4 KB answers, 3–5 references each)
 * keeps the api's live heap within a fixed bound, well below the size of the
 * file, in every format; the full result JSON of the same task, which is
 * built whole in memory, exceeds that bound, so the bound tells them apart.
 * The api runs embedded, so the test samples its own live heap (after a
 * forced collection) while it reads the download and throws the bytes away.
 */
import t from 'tap';
import { seedLargeTask } from '../../../bench/export/seed.js';
import { subTaskIdFor } from '../../../services/shared/ids.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { downloadHeapGrowth, mb } from '../../helpers/heap-growth.js';

// Seeding and three full exports with forced collections: 35 to 70 s on a busy 2-core machine.
t.setTimeout(240_000);

const SUB_TASKS = 2_500;
/**
 * Live heap growth allowed while exporting (measured: about 3 MB in every
 * format). The CSV is 8 MB, the NDJSON 11 MB, and the full result built whole
 * grows the heap by about 20 or about 42 MB (two modes, by where the collector
 * runs: seven fresh-clone runs gave 19.7 to 20.1 MB or 41.9 to 42.1 MB).
 */
const BOUND_BYTES = 5 * 1024 * 1024;
const M = '/api/business/monitor';

const svc = await startEmbedded(t);
const user = await svc.newUser('big');
const taskId = await seedLargeTask(await svc.db(), user.userId, SUB_TASKS);

/** Downloads `path`, keeping nothing; the peak live heap growth, the size, newlines and first bytes. */
async function measure(path: string) {
  let newlines = 0;
  let head = '';
  const run = await downloadHeapGrowth(svc.client.baseUrl + path, user.token, (chunk, before) => {
    if (before === 0) head = Buffer.from(chunk.subarray(0, 2)).toString('latin1');
    for (const b of chunk) if (b === 0x0a) newlines += 1;
  });
  return { ...run, newlines, head };
}

for (const format of ['csv', 'ndjson', 'xlsx'] as const) {
  t.test(`a ${format} export of ${SUB_TASKS} sub tasks stays under the bound`, async (t) => {
    const run = await measure(`${M}/task/${taskId}/export?format=${format}`);
    t.comment(`${format}: ${mb(run.bytes)}, live heap growth ${mb(run.peak)}`);
    t.ok(run.peak < BOUND_BYTES, `${mb(run.peak)} < ${mb(BOUND_BYTES)}`);
    if (format === 'xlsx') t.equal(run.head, 'PK', 'a zip');
    else {
      t.ok(run.bytes > 1.5 * BOUND_BYTES, `the file (${mb(run.bytes)}) is well above the bound`);
      if (format === 'ndjson') t.equal(run.newlines, SUB_TASKS, 'one line per sub task');
    }
  });
}

t.test('the full result, built whole, exceeds the bound', async (t) => {
  const full = await measure(`${M}/task/result/${taskId}`);
  t.comment(`full result: ${mb(full.bytes)}, live heap growth ${mb(full.peak)}`);
  // Three times the bound: clear of the lower mode (about 20 MB) and of the exports' 3 MB.
  t.ok(full.peak > 3 * BOUND_BYTES, `${mb(full.peak)} > 3 × ${mb(BOUND_BYTES)}`);
});

t.test('the pages join up: every sub task once, in seq order', async (t) => {
  const res = await svc.client.get(`${M}/task/${taskId}/export?format=ndjson`, user.token);
  const ids = res.text
    .trimEnd()
    .split('\n')
    .map((line) => (JSON.parse(line) as { subTaskId: string }).subTaskId);
  t.same(
    ids,
    Array.from({ length: SUB_TASKS }, (_, seq) => subTaskIdFor(taskId, seq)),
  );
});
