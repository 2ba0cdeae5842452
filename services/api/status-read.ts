/** A task's status envelope for its owner, through the status cache: what the status route and the MCP tool serve. */
import type { Backend } from './backend.js';
import { serialisedOk } from './envelope.js';
import type { StatusCache } from './status-cache.js';

export function statusBody(
  cache: StatusCache,
  backend: Backend,
  userId: number,
  taskId: string,
): Promise<Buffer> {
  return cache.get(taskId.toLowerCase(), userId, async () =>
    serialisedOk(await backend.call('tasks.status', { userId, taskId })),
  );
}
