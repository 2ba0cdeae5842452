/**
 * What a run's insights read, pure: every task the run asked (each region's
 * own task and its follow-up rounds), leaving out the refused ones, which
 * hold no sub task.
 */
import type { RunDoc } from './models.js';

export function runTaskIds(run: Pick<RunDoc, 'regions'>): string[] {
  return run.regions.flatMap((r) =>
    r.error !== null
      ? []
      : [r.taskId, ...r.followUps.filter((f) => f.error === null).map((f) => f.taskId)],
  );
}
