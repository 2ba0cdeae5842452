/**
 * A task's sub tasks for an export, page by page over the broker
 * (`tasks.exportPage`, cursor = the last `seq`). Memory stays bounded by one
 * page: the next page is asked for only when the writer has taken the last
 * one, and the writers wait for the response to drain (see writers.ts). A
 * Moleculer stream would also bound it, but paging needs no stream plumbing
 * across NATS and each page is an ordinary call with the ordinary errors.
 */
import type { Backend } from '../backend.js';
import type { Visibility } from '../../shared/contracts/brand.js';
import type { ExportPage } from '../../shared/contracts/export.js';
import type { Item, SubTaskView } from './tables.js';

/** About 300 KB of 2–4 KB answers: 25 calls for 2,500 sub tasks, small pages. */
export const EXPORT_PAGE_SIZE = 100;

/** Makes a page's views what the full result shows (absolute screenshot URL, raw evidence link). */
export type Decorate = (taskId: string, views: SubTaskView[]) => Promise<void>;

export class ExportSource {
  private first: ExportPage<SubTaskView> | undefined;

  constructor(
    private readonly backend: Backend,
    private readonly userId: number,
    private readonly taskId: string,
    private readonly decorate: Decorate,
    private readonly pageSize = EXPORT_PAGE_SIZE,
  ) {}

  /** Reads the first page: an unknown task (or another user's) fails here, before any byte is sent. */
  async open(): Promise<{ taskId: string; name: string | null; keywords: string[] }> {
    this.first = await this.page(-1);
    const { taskId, name, keywords } = this.first;
    return { taskId, name, keywords };
  }

  /** Every sub task in `seq` order, a page at a time; each call reads the task again from the start. */
  async *pages(): AsyncGenerator<Item[]> {
    let page = this.first ?? (await this.page(-1));
    this.first = undefined;
    for (;;) {
      await this.decorate(
        page.taskId,
        page.items.map((i) => i.result),
      );
      yield page.items;
      const last = page.items.at(-1);
      if (!last || page.items.length < this.pageSize) return;
      page = await this.page(last.seq);
    }
  }

  /**
   * The task's visibility as `GET …/task/{taskId}/visibility` gives it (the
   * tasks service sums every sub task without its answer): the insight
   * tables are sums over the whole task, so they come after every page.
   */
  visibility(): Promise<Visibility> {
    return this.backend.call<Visibility>('tasks.visibility', {
      userId: this.userId,
      taskId: this.taskId,
    });
  }

  private page(afterSeq: number): Promise<ExportPage<SubTaskView>> {
    return this.backend.call<ExportPage<SubTaskView>>('tasks.exportPage', {
      userId: this.userId,
      taskId: this.taskId,
      afterSeq,
      limit: this.pageSize,
    });
  }
}
