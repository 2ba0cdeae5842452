/** Waiting, over the HTTP API, for a task to reach a final status. */
import type { Client } from './http.js';
import { FINAL_TASK, until } from './wait.js';

const STATUS = '/api/business/monitor/task/status/';

/** Polls the task's status until it is final; resolves with that status response. */
export function untilTaskFinal(
  client: Client,
  token: string,
  taskId: string,
  timeoutMs: number,
  everyMs: number,
) {
  return until(
    `task ${taskId} to finish`,
    async () => {
      const s = await client.get(STATUS + taskId, token);
      return FINAL_TASK.includes(s.body.data.status) ? s : undefined;
    },
    timeoutMs,
    everyMs,
  );
}
