/**
 * A final task's insights (discovered brands, citation opportunities), summed
 * once when the task becomes final and stored with it, so that a read of a
 * final task pays the visibility pass without the insights: summing every
 * answer's insights on each read costs more than the pass itself
 * (docs/insights.md, "Cost"). A final task's answers never change, so what was
 * summed at its finish is what a read would sum. Pure.
 */
import type {
  CitationOpportunity,
  DiscoveredBrand,
  KeywordGroup,
  Visibility,
} from '../contracts/brand.js';
import { FINAL_TASK_STATUSES, type TaskStatus } from '../contracts/status.js';
import { visibilityOf, type VisibilityInput } from './visibility.js';

/**
 * Bumped whenever what the insights hold or how they are summed changes: a
 * task finished under another version is summed live again on read, as one
 * stored before insights were stored is.
 */
export const STORED_INSIGHTS_VERSION = 1;

export interface StoredInsights {
  version: number;
  discovered: DiscoveredBrand[];
  opportunities: CitationOpportunity[];
}

/** What a task document holds of them: absent on tasks finished before they were stored. */
export interface TaskInsightsFields {
  status: TaskStatus;
  insights?: StoredInsights | null;
}

/** The insights of a visibility, to store with its final task. */
export function toStored({ discovered, opportunities }: Visibility): StoredInsights {
  return { version: STORED_INSIGHTS_VERSION, discovered, opportunities };
}

/** The stored insights a read may use: the task is final and they are of this version; else null. */
export function usableInsights(task: TaskInsightsFields): StoredInsights | null {
  const stored = task.insights;
  return stored &&
    FINAL_TASK_STATUSES.includes(task.status) &&
    stored.version === STORED_INSIGHTS_VERSION &&
    Array.isArray(stored.discovered) &&
    Array.isArray(stored.opportunities)
    ? stored
    : null;
}

/**
 * A task's visibility over its sub tasks: with `stored` insights (its
 * `usableInsights`), the pass without the insights and the stored ones;
 * without, the pass summing them (a running task, or one finished before they
 * were stored).
 */
export function visibilityWith(
  groups: readonly KeywordGroup[],
  subTasks: Iterable<VisibilityInput>,
  stored: StoredInsights | null,
): Visibility {
  if (!stored) return visibilityOf(groups, subTasks);
  const visibility = visibilityOf(groups, subTasks, { insights: false });
  visibility.discovered = stored.discovered;
  visibility.opportunities = stored.opportunities;
  return visibility;
}
