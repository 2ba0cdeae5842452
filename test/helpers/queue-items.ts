/** A pending sub task as the scheduler's queue holds it, for scheduler unit tests. */
import type { QueueItem } from '../../services/shared/contracts/events.js';

export function queueItem(
  taskId: string,
  userId: number,
  seq: number,
  extra: Partial<QueueItem> = {},
): QueueItem {
  return {
    id: `${taskId}-${seq}`,
    taskId,
    userId,
    seq,
    platform: 'sandbox',
    channel: 'api',
    mode: 'standard',
    prompt: `prompt ${seq}`,
    screenshot: 0,
    regionCode: null,
    notBefore: 0,
    lastNode: null,
    lastProxy: null,
    lastAccount: null,
    attempts: 0,
    ...extra,
  };
}
