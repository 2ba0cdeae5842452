/**
 * The body of a `monitor.digest` delivery, pure: the runs that finished in
 * the 24 h before the digest's time, each with its task per region, and the
 * changes detected in that window, as `GET …/monitors/{id}/changes` serves
 * them (docs/monitors.md, "Alerts and the daily digest").
 */
import type { MonitorDigestPayload } from '../../shared/contracts/monitor-deliveries.js';
import type { RunDoc } from '../models.js';
import type { DigestDay } from './due.js';

export const DIGEST_WINDOW_MS = 24 * 3600_000;
/** Changes one digest carries at most; `changesTruncated` says when there were more. */
export const DIGEST_MAX_CHANGES = 1_000;

/** A change as the monitors service stores it (collection `monitorChanges`). */
export type StoredChange = { _id: unknown } & Record<string, unknown>;

export type DigestRun = Pick<
  RunDoc,
  '_id' | 'trigger' | 'slot' | 'status' | 'finishedAt' | 'regions'
>;

export function digestBody(
  monitor: { _id: string; name: string },
  day: DigestDay,
  runs: DigestRun[],
  changes: StoredChange[],
): MonitorDigestPayload {
  return {
    monitorId: monitor._id,
    name: monitor.name,
    day: day.day,
    timezone: day.timezone,
    from: day.slot - DIGEST_WINDOW_MS,
    to: day.slot,
    runs: runs.map((r) => ({
      runId: r._id,
      trigger: r.trigger,
      slot: r.slot,
      status: r.status,
      finishedAt: r.finishedAt,
      regions: r.regions.map((g) => ({
        regionCode: g.regionCode,
        taskId: g.taskId,
        taskStatus: g.taskStatus,
      })),
    })),
    changes: changes.slice(0, DIGEST_MAX_CHANGES).map(({ _id, ...change }) => ({
      id: String(_id),
      ...change,
    })),
    changesTruncated: changes.length > DIGEST_MAX_CHANGES,
  };
}
