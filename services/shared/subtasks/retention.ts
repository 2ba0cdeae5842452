/**
 * Results are kept RETENTION_DAYS after their task became final, then
 * removed with everything that hangs off them: sub tasks, screenshots, raw
 * evidence and the callback delivery. The task document goes last, so a purge
 * interrupted halfway finds the task again next time and finishes the job.
 */
import type { Connection } from 'mongoose';
import { type TaskModels } from './models.js';
import { FINAL_TASK_STATUSES } from '../contracts/status.js';

/** Tasks purged per call; the next round takes the rest. */
const BATCH = 200;

export async function purgeExpiredTasks(
  m: TaskModels,
  connection: Connection,
  cutoff: number,
): Promise<number> {
  const tasks = await m.Task.find(
    { status: { $in: FINAL_TASK_STATUSES }, completedAt: { $lt: cutoff } },
    { _id: 1 },
  )
    .limit(BATCH)
    .lean<{ _id: string }[]>();
  if (tasks.length === 0) return 0;
  const taskIds = tasks.map((t) => t._id);
  const subs = await m.SubTask.find({ taskId: { $in: taskIds } }, { _id: 1 }).lean<
    { _id: string }[]
  >();
  const ofSubTasks = { subTaskId: { $in: subs.map((s) => s._id) } };
  await connection.collection('screenshots').deleteMany(ofSubTasks);
  await connection.collection('evidence').deleteMany(ofSubTasks);
  await connection.collection('deliveries').deleteMany({ _id: { $in: taskIds as never[] } });
  await m.SubTask.deleteMany({ taskId: { $in: taskIds } });
  await m.Task.deleteMany({ _id: { $in: taskIds } });
  return taskIds.length;
}
