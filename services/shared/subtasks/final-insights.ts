/**
 * The insights of a task whose sub tasks are all final, summed once to be
 * stored with its final status (ledger.ts `finishIfDone`), so that reads of
 * the final task do not sum them again (services/shared/brand/stored-insights.ts).
 */
import type { KeywordGroup } from '../contracts/brand.js';
import { toStored, type StoredInsights } from '../brand/stored-insights.js';
import { visibilityOf } from '../brand/visibility.js';
import type { TaskModels } from './models.js';
import { readVisibilityInputs } from './visibility-inputs.js';

/**
 * Null when the sum itself fails: the task still finishes, without them, and
 * its reads sum them live (where such a failure shows), as for a task finished
 * before they were stored. A failed read throws, as the finish's own write would.
 */
export async function finalInsights(
  m: Pick<TaskModels, 'SubTask'>,
  groups: readonly KeywordGroup[],
  taskId: string,
): Promise<StoredInsights | null> {
  const inputs = await readVisibilityInputs(m, taskId, { insights: true });
  try {
    return toStored(visibilityOf(groups, inputs));
  } catch {
    return null;
  }
}
