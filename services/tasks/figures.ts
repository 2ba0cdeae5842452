/**
 * The sub task figures of `/metrics`, counted by the database in two
 * aggregations over the stored sub tasks (those within the retention period),
 * so they are the same on every node and survive restarts.
 */
import {
  ANSWER_SECONDS_BUCKETS,
  type AnswerTimes,
  type SubTaskCount,
  type TaskFigures,
} from '../shared/contracts/figures.js';
import type { TaskModels } from '../shared/subtasks/models.js';

/** The sub task figures; the web outcomes come from the collector store. */
export async function taskFigures(models: TaskModels): Promise<Omit<TaskFigures, 'webOutcomes'>> {
  const col = models.SubTask.collection;
  const bucketSums = Object.fromEntries(
    ANSWER_SECONDS_BUCKETS.map((le, i) => [
      `b${i}`,
      { $sum: { $cond: [{ $lte: ['$answerMs', le * 1000] }, 1, 0] } },
    ]),
  );
  const [counts, times] = await Promise.all([
    col
      .aggregate<{ _id: { platform: string; channel: string; status: string }; n: number }>([
        {
          $group: {
            _id: { platform: '$platform', channel: '$channel', status: '$status' },
            n: { $sum: 1 },
          },
        },
      ])
      .toArray(),
    col
      .aggregate<
        { _id: { platform: string; channel: string }; n: number; ms: number } & Record<
          string,
          number
        >
      >([
        { $match: { status: 'completed', answerMs: { $gte: 0 } } },
        {
          $group: {
            _id: { platform: '$platform', channel: '$channel' },
            n: { $sum: 1 },
            ms: { $sum: '$answerMs' },
            ...bucketSums,
          },
        },
      ])
      .toArray(),
  ]);
  return {
    subtasks: counts
      .map((c): SubTaskCount => ({ ...c._id, count: c.n }))
      .sort((a, b) => key(a).localeCompare(key(b))),
    answerTimes: times
      .map((t): AnswerTimes => ({
        ...t._id,
        buckets: ANSWER_SECONDS_BUCKETS.map((_, i) => t[`b${i}`] ?? 0),
        count: t.n,
        sumSeconds: t.ms / 1000,
      }))
      .sort((a, b) => key(a).localeCompare(key(b))),
  };
}

const key = (f: { platform: string; channel: string; status?: string }) =>
  `${f.platform}/${f.channel}/${f.status ?? ''}`;
