/**
 * Events of the task life cycle. `task.created` and `subtask.settled` are
 * broadcast, because only the active scheduler instance acts on them and any
 * instance may be it; `task.finished` is emitted once per task and balanced,
 * so one instance of each listening service handles it.
 */
import type { ServiceBroker } from 'moleculer';
import type { Finished, Settled } from './ledger.js';
import type { QueueItem } from '../scheduler/fair-queue.js';

export interface TaskCreated {
  taskId: string;
  /** The new sub tasks as the scheduler queues them (absent: it reads them). */
  items?: QueueItem[];
}

export type SubTaskSettled = Omit<Settled, 'finished'>;

export type TaskFinished = Finished;

export async function announceSettled(broker: ServiceBroker, settled: Settled): Promise<void> {
  const { finished, ...rest } = settled;
  await broker.broadcast('subtask.settled', rest satisfies SubTaskSettled);
  if (finished) await announceFinished(broker, finished);
}

export async function announceFinished(broker: ServiceBroker, finished: Finished): Promise<void> {
  await broker.emit('task.finished', finished satisfies TaskFinished);
}
