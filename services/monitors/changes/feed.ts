/**
 * Detecting a finished run's changes once, storing them in `monitorChanges`
 * and handing them to the monitor's callback URL through the generalised
 * delivery (`callbacks.deliver`, kind `monitor.changes`; signed, retried and
 * address-checked like a task callback). A node that stops between marking a
 * run and storing its changes loses that run's changes rather than sending
 * them twice.
 */
import type { Change } from '../../shared/contracts/monitor-trends.js';
import type { MonitorDoc } from '../models.js';
import { detectChanges } from './detect.js';
import { changeId, type ChangeStore } from './store.js';

export interface Delivery {
  kind: 'monitor.changes';
  subjectId: string;
  userId: number;
  url: string;
  body: { monitorId: string; runId: string; changes: Change[] };
}

export interface FeedDeps {
  store: ChangeStore;
  deliver: (delivery: Delivery) => Promise<unknown>;
  warn: (message: string, err?: unknown) => void;
}

export class ChangeFeed {
  constructor(private readonly deps: FeedDeps) {}

  /** The run's changes against the run before it, stored and delivered; [] when another node has them. */
  async detect(monitor: MonitorDoc, runId: string, now: number): Promise<Change[]> {
    const { store } = this.deps;
    if (!(await store.claimDetection(runId, now))) return [];
    const runs = await store.finishedRuns(monitor._id, { from: null, to: null });
    const at = runs.findIndex((r) => r.runId === runId);
    if (at < 0) return [];
    const history = runs.slice(0, at + 1);
    const run = history[at]!;
    const previousRunId = history[at - 1]?.runId ?? null;
    const changes = detectChanges(history).map((d): Change => ({
      id: changeId(runId, d),
      monitorId: monitor._id,
      runId,
      previousRunId,
      slot: run.slot,
      detectedAt: now,
      ...d,
    }));
    await store.save(changes);
    if (monitor.callbackUrl && changes.length > 0) await this.deliver(monitor, runId, changes);
    return changes;
  }

  private async deliver(monitor: MonitorDoc, runId: string, changes: Change[]): Promise<void> {
    try {
      await this.deps.deliver({
        kind: 'monitor.changes',
        subjectId: runId,
        userId: monitor.userId,
        url: monitor.callbackUrl!,
        body: { monitorId: monitor._id, runId, changes },
      });
    } catch (err) {
      // The changes stay in the feed whether or not the alert could be queued.
      this.deps.warn(`monitor run ${runId}: changes not handed to callbacks.deliver:`, err);
    }
  }
}
