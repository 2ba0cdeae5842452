/**
 * Outcome reports, gathered for a moment and sent in one call. A crawler
 * node finishes many leases at nearly the same time (answers of one platform
 * take about as long as each other), and one report call per outcome
 * costs a NATS request, its reply and a `subtasks.settled` broadcast each,
 * plus a write of the task's counters. Gathered, one call carries them all
 * and the counters are written once per task. The window also keeps the
 * reports off the path that starts the next waiting lease: a freed slot is
 * busy again before the node spends time on reporting.
 */
export class ReportBatch<T> {
  private pending: { item: T; done: (err?: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param send delivers one batch; a rejection fails every report in it.
   * @param windowMs how long the first report of a batch waits for others.
   * @param max a batch this big goes at once.
   */
  constructor(
    private readonly send: (items: T[]) => Promise<void>,
    private readonly windowMs: number,
    private readonly max: number,
  ) {}

  /** Resolves once the batch holding this report was delivered. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (this.pending.length >= this.max) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  /** Sends what is gathered now, without waiting out the window. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.send(batch.map((p) => p.item)).then(
      () => batch.forEach((p) => p.done()),
      (err: unknown) => batch.forEach((p) => p.done(err ?? new Error('report batch failed'))),
    );
  }
}
