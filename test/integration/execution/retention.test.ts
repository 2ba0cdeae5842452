import t from 'tap';
import mongoose from 'mongoose';
import { purgeExpiredTasks } from '../../../services/shared/subtasks/retention.js';
import { taskModels } from '../../../services/shared/subtasks/models.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';

const conn = await mongoose
  .createConnection(mongoUrl(), { dbName: uniqueDbName('retention') })
  .asPromise();
t.teardown(async () => {
  await conn.dropDatabase();
  await conn.close();
});
const col = (name: string) => conn.collection(name);

async function task(id: string, status: string, completedAt: number | null) {
  await col('tasks').insertOne({ _id: id as never, status, completedAt });
  await col('subtasks').insertMany([
    { _id: `${id}-1` as never, taskId: id },
    { _id: `${id}-2` as never, taskId: id },
  ]);
  await col('screenshots').insertOne({ _id: `shot-${id}` as never, subTaskId: `${id}-1` });
  await col('evidence').insertMany([
    { _id: `raw-${id}-1` as never, subTaskId: `${id}-1` },
    { _id: `raw-${id}-2` as never, subTaskId: `${id}-2` },
  ]);
  await col('deliveries').insertOne({ _id: id as never, status: 'SUCCEEDED' });
}

t.test('final tasks past the cutoff go, with everything that hangs off them', async (t) => {
  await task('old', 'completed', 1_000);
  await task('old-failed', 'failed', 2_000);
  await task('recent', 'partial_completed', 9_000);
  await task('running', 'processing', null);
  t.equal(await purgeExpiredTasks(taskModels(conn), conn, 5_000), 2);
  const ids = async (name: string) =>
    (await col(name).find({}).toArray()).map((d) => String(d._id)).sort();
  t.same(await ids('tasks'), ['recent', 'running']);
  t.same(await ids('subtasks'), ['recent-1', 'recent-2', 'running-1', 'running-2']);
  t.same(await ids('screenshots'), ['shot-recent', 'shot-running']);
  t.same(await ids('evidence'), ['raw-recent-1', 'raw-recent-2', 'raw-running-1', 'raw-running-2']);
  t.same(await ids('deliveries'), ['recent', 'running']);
  t.equal(await purgeExpiredTasks(taskModels(conn), conn, 5_000), 0, 'nothing left to purge');
});
