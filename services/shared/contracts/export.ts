/**
 * `tasks.exportPage`: one page of a task's sub tasks, as the api's export
 * (`GET …/task/{taskId}/export`) reads them, cursor = the last `seq`.
 */
import type { DiscoveredEntry, Mention, SentimentVerdict, SubTaskBrandFields } from './brand.js';

export interface ExportPageRequest {
  userId: number;
  taskId: unknown;
  /** -1 for the first page, then the last item's `seq`. */
  afterSeq: number;
  limit: number;
}

export interface ExportItem<View = Record<string, unknown>> {
  seq: number;
  /** The sub task as the full result shows it (services/shared/task-views.ts subTaskResult). */
  result: View;
  brand: SubTaskBrandFields;
  /**
   * The brands the answer recommends that no group watches, as stored ([] on
   * documents older than them; absent from a tasks service older than this field: none).
   */
  discovered?: DiscoveredEntry[];
}

export interface ExportPage<View = Record<string, unknown>> {
  taskId: string;
  /** The task's name; null: none. */
  name: string | null;
  /** The task's `monitorKeywords` entries (`|` separating aliases). */
  keywords: string[];
  items: ExportItem<View>[];
}

/** The brand fields of a stored sub task; absent on documents older than them: none. */
export function storedBrandFields(doc: {
  mentions?: Mention[] | null;
  mentioned?: boolean | null;
  sentiment?: SentimentVerdict[] | null;
}): SubTaskBrandFields {
  return {
    mentions: doc.mentions ?? [],
    mentioned: doc.mentioned ?? false,
    sentiment: doc.sentiment ?? null,
  };
}
