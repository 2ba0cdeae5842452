/**
 * Events of the task life cycle. `task.created` and `subtasks.settled` are
 * broadcast, because only the active scheduler instance acts on them and any
 * instance may be it; `task.finished` is emitted once per task and balanced,
 * so one instance of each listening service handles it. `subtasks.leased`
 * is broadcast for the api nodes: their status answers and events streams.
 */
import type { ServiceBroker } from 'moleculer';
import type {
  Finished,
  QueueItem,
  SubTasksLeased,
  Settled,
  SubTaskSettled,
  SubTasksSettled,
  TaskFinished,
} from '../contracts/events.js';

/**
 * One broadcast for all of them, then each task they finished. Takes what a
 * ledger call answered: a dropped report (undefined) is skipped.
 */
export async function announceSettled(
  broker: ServiceBroker,
  settled: (Settled | undefined)[],
): Promise<void> {
  const list: SubTaskSettled[] = [];
  const finishes: Finished[] = [];
  for (const s of settled) {
    if (!s) continue;
    const { finished, ...rest } = s;
    list.push(rest);
    if (finished) finishes.push(finished);
  }
  if (list.length === 0) return;
  await broker.broadcast('subtasks.settled', { settled: list } satisfies SubTasksSettled);
  for (const finished of finishes) await announceFinished(broker, finished);
}

export async function announceFinished(broker: ServiceBroker, finished: Finished): Promise<void> {
  broker.logger.info({ taskId: finished.taskId, status: finished.status }, 'task finished');
  await broker.emit('task.finished', finished satisfies TaskFinished);
}

/** Not awaited by the dispatch pass: a lost announcement only delays a view by its refresh. */
export function announceLeased(
  broker: ServiceBroker,
  items: Pick<QueueItem, 'id' | 'taskId'>[],
  warn: (message: string, err: unknown) => void,
): void {
  if (items.length === 0) return;
  const leased = items.map((item) => ({ subTaskId: item.id, taskId: item.taskId }));
  broker
    .broadcast('subtasks.leased', { leased } satisfies SubTasksLeased)
    .catch((err: unknown) => warn('announcing leases failed', err));
}
