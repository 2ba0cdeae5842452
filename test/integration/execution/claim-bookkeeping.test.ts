import t from 'tap';
import mongoose from 'mongoose';
import { ClaimBookkeeping } from '../../../services/shared/subtasks/claim-bookkeeping.js';
import { taskModels } from '../../../services/shared/subtasks/models.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';

const conn = await mongoose
  .createConnection(mongoUrl(), { dbName: uniqueDbName('claimbook') })
  .asPromise();
t.teardown(async () => {
  await conn.dropDatabase();
  await conn.close();
});
const models = taskModels(conn);
const tasks = conn.collection('tasks');

async function task(id: string, status: string, version: number) {
  await tasks.insertOne({ _id: id as never, status, version });
}
const read = (id: string) => tasks.findOne({ _id: id as never });

t.test('a window of claims is one bookkeeping write per task', async (t) => {
  await task('a', 'pending', 0);
  await task('b', 'processing', 7);
  const book = new ClaimBookkeeping(models, 10_000);
  for (let i = 0; i < 30; i++) book.mark(i % 2 ? 'a' : 'b');
  t.match(await read('a'), { status: 'pending', version: 0 }, 'nothing written inside the window');
  await book.flush();
  t.match(await read('a'), { status: 'processing', version: 1 }, 'a pending task starts, once');
  t.match(await read('b'), { status: 'processing', version: 8 }, 'a started task gets one bump');

  book.mark('a');
  book.mark('b');
  await book.flush();
  t.match(await read('a'), { status: 'processing', version: 2 });
  t.match(await read('b'), { status: 'processing', version: 9 });
  await book.flush();
  t.match(await read('a'), { version: 2 }, 'an empty flush writes nothing');
});

t.test('the window flushes by itself', async (t) => {
  await task('c', 'pending', 0);
  const book = new ClaimBookkeeping(models, 20);
  book.mark('c');
  const deadline = Date.now() + 5_000;
  while ((await read('c'))?.status !== 'processing' && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 10));
  t.match(await read('c'), { status: 'processing', version: 1 });
});

t.test('a task finished meanwhile keeps its final status', async (t) => {
  await task('d', 'completed', 3);
  const book = new ClaimBookkeeping(models, 10_000);
  book.mark('d');
  await book.flush();
  t.match(await read('d'), { status: 'completed', version: 4 });
});
