/**
 * A pending sub task as the scheduler's fair queue holds it: built by tasks
 * from the sub tasks it just wrote (the `task.created` event) and by the
 * scheduler from the documents it reloads.
 */
import type { SubTaskDoc } from './models.js';
import type { QueueItem } from '../contracts/events.js';

/** The fields of a sub task document that a queue item is built from. */
export const QUEUE_FIELDS = {
  taskId: 1,
  userId: 1,
  seq: 1,
  platform: 1,
  channel: 1,
  mode: 1,
  prompt: 1,
  screenshot: 1,
  keywords: 1,
  regionCode: 1,
  notBefore: 1,
  lastNode: 1,
  lastProxy: 1,
  lastAccount: 1,
  attempts: 1,
};

/** A pending sub task document as the queue holds it. */
export function toQueueItem(d: SubTaskDoc): QueueItem {
  return {
    id: d._id,
    taskId: d.taskId,
    userId: d.userId,
    seq: d.seq,
    platform: d.platform,
    channel: d.channel,
    mode: d.mode,
    prompt: d.prompt,
    screenshot: d.screenshot,
    ...(d.keywords !== undefined && d.keywords.length > 0 && { keywords: d.keywords }),
    regionCode: d.regionCode ?? null,
    notBefore: d.notBefore ?? 0,
    lastNode: d.lastNode ?? null,
    lastProxy: d.lastProxy ?? null,
    lastAccount: d.lastAccount ?? null,
    attempts: d.attempts ?? 0,
  };
}
