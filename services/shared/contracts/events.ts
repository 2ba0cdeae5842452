/**
 * Payloads of the task life cycle events: `task.created`, `subtasks.leased`
 * and `subtasks.settled` (broadcast) and `task.finished` (emitted once per task).
 */
import type { Channel } from '../platforms.js';
import type { FinalSubTaskStatus, TaskStatus } from './status.js';

export interface Finished {
  taskId: string;
  userId: number;
  status: TaskStatus;
  completedAt: number;
}

export interface Settled {
  subTaskId: string;
  taskId: string;
  node: string | null;
  platform: string;
  /** 'retry': back to pending until notBefore; otherwise the final status. */
  outcome: 'retry' | FinalSubTaskStatus;
  notBefore?: number;
  finished?: Finished;
}

/**
 * The pending sub tasks the scheduler may lease, in fair order: round-robin
 * across users, then across each user's tasks, each task in sub task order.
 * A small task of one user is therefore never stuck behind another user's
 * 2,500-sub-task batch. Pure: the caller decides eligibility (due time,
 * platform caps, a node with room).
 */
export interface QueueItem {
  id: string;
  taskId: string;
  userId: number;
  seq: number;
  platform: string;
  /** The channel the sub task runs on. */
  channel: Channel;
  mode: string;
  prompt: string;
  screenshot: 0 | 1 | 2;
  /** Screenshot mode 2: the task's keyword entries (absent: none). */
  keywords?: string[];
  regionCode: string | null;
  /** Not before this time (retry backoff); 0 = at once. */
  notBefore: number;
  /** Node of the previous attempt, avoided when another can take it. */
  lastNode: string | null;
  /** Proxy port (`host:port`) of the previous attempt, avoided when the region has another. */
  lastProxy: string | null;
  /** Web channel: the account of the previous attempt, avoided by the next claim. */
  lastAccount: string | null;
  attempts: number;
  /** When the sub task first became due with no node for its region (REGION_WAIT). */
  waitingSince?: number;
  /** Web channel: when the sub task first found no usable account (ACCOUNT_WAIT_MS). */
  accountWaitSince?: number;
}

export interface TaskCreated {
  taskId: string;
  /** The new sub tasks as the scheduler queues them (absent: it reads them). */
  items?: QueueItem[];
}

export type SubTaskSettled = Omit<Settled, 'finished'>;

/**
 * Sub tasks the scheduler just leased to a crawler node (pending → processing),
 * broadcast so api nodes refresh the status and events streams of their tasks.
 */
export interface SubTasksLeased {
  leased: { subTaskId: string; taskId: string }[];
}

/** Sub tasks settled together (one crawler report batch, or expired leases). */
export interface SubTasksSettled {
  settled: SubTaskSettled[];
}

export type TaskFinished = Finished;
