/**
 * Starting a run: one task per region with the monitor's cells × samples,
 * submitted through `tasks.submit` like any batch. A run is created with its
 * task ids and under a start claim (services/shared/claim.ts); the claim's
 * holder submits the regions one by one and marks each. A holder that dies
 * leaves the claim to lapse, and the next leader takes it and submits what is
 * left: a task already stored under its id answers 409 and counts as
 * submitted, so no region is submitted twice. A follow-up round of adaptive
 * sampling (rounds.ts) is stored with its task ids and submitted the same way
 * under the run's claim, so a restart never submits a round twice either.
 */
import { newLease } from '../shared/claim.js';
import { newTaskId } from '../shared/ids.js';
import { firstRound } from './figures/sampling.js';
import { startClaims, type MonitorDoc, type RunDoc } from './models.js';
import type { MonitorStore } from './store.js';

export interface SubmitCall {
  userId: number;
  body: Record<string, unknown>;
  taskId: string;
  samples: number;
}

export interface StarterDeps {
  store: MonitorStore;
  submit: (call: SubmitCall) => Promise<unknown>;
  holder: string;
  claimMs: number;
  warn: (message: string, err: unknown) => void;
}

/** The run of a slot (or of "run now"), pure: its tasks' ids and bodies fixed up front. */
export function planRun(
  monitor: MonitorDoc,
  trigger: RunDoc['trigger'],
  slot: number,
  now: number,
  claim: { token: string; holder: string; expiresAt: number },
): RunDoc {
  const runId = newTaskId();
  const regions = monitor.regionCodes.length > 0 ? monitor.regionCodes : [null];
  return {
    _id: runId,
    monitorId: monitor._id,
    userId: monitor.userId,
    trigger,
    slot,
    slotKey: trigger === 'schedule' ? `${monitor._id}@${slot}` : runId,
    status: 'starting',
    body: {
      name: `${monitor.name} · ${new Date(slot).toISOString()}`,
      prompts: monitor.prompts.map((p) => p.text),
      platforms: monitor.platforms,
      monitorKeywords: monitor.monitorKeywords,
    },
    samples: firstRound(monitor.samples),
    sampling: monitor.samples,
    promptTags: monitor.prompts.map((p) => p.tags),
    regions: regions.map((regionCode) => ({
      regionCode,
      taskId: newTaskId(),
      submitted: false,
      taskStatus: null,
      error: null,
      followUps: [],
      cells: null,
      pools: null,
    })),
    createdAt: now,
    finishedAt: null,
    changesDetectedAt: null,
    ...(startClaims.take(claim.token, claim.holder, claim.expiresAt) as Pick<
      RunDoc,
      'startToken' | 'startHolder' | 'startExpiresAt'
    >),
  };
}

export class RunStarter {
  constructor(private readonly deps: StarterDeps) {}

  /** Creates and starts a run; null when its slot's run exists already (another node's). */
  async create(
    monitor: MonitorDoc,
    trigger: RunDoc['trigger'],
    slot: number,
    now: number,
  ): Promise<RunDoc | null> {
    const lease = newLease(now, this.deps.claimMs);
    const claim = { token: lease.token, holder: this.deps.holder, expiresAt: lease.expiresAt };
    const run = planRun(monitor, trigger, slot, now, claim);
    if (!(await this.deps.store.createRun(run))) return null;
    await this.submitRegions(run, lease.token);
    return run;
  }

  /** Takes over starts whose holder stopped renewing, and finishes them. */
  async resumeStalled(now: number): Promise<number> {
    let resumed = 0;
    for (;;) {
      const lease = newLease(now, this.deps.claimMs);
      const run = await this.deps.store.takeStalledStart(
        now,
        lease.token,
        this.deps.holder,
        lease.expiresAt,
      );
      if (!run) return resumed;
      await this.submitRegions(run, lease.token);
      resumed++;
    }
  }

  /**
   * Submits the follow-ups of a run not yet submitted, under the run's claim
   * when it is free or lapsed (its holder died); another holder's live claim
   * leaves them to it. The leader's sweep calls this for every running run.
   */
  async submitFollowUps(runId: string, now: number): Promise<void> {
    const lease = newLease(now, this.deps.claimMs);
    const run = await this.deps.store.takeFollowUps(
      runId,
      now,
      lease.token,
      this.deps.holder,
      lease.expiresAt,
    );
    if (!run) return;
    await this.trySubmitFollowUps(run, lease.token).catch((err: unknown) =>
      this.deps.warn(
        `monitor run ${run._id}: follow-up round interrupted, resumed once its claim lapses:`,
        err,
      ),
    );
  }

  private async trySubmitFollowUps(run: RunDoc, token: string): Promise<void> {
    const body = run.body as { prompts: string[]; platforms: unknown[] };
    for (const [r, region] of run.regions.entries()) {
      for (const [f, followUp] of region.followUps.entries()) {
        if (followUp.submitted) continue;
        const error = await this.submitOne(run.userId, followUp.taskId, followUp.samples, {
          ...regionBody(run, region.regionCode),
          name: `${run.body.name as string} · round ${followUp.round}`,
          prompts: followUp.prompts.map((i) => body.prompts[i]),
          platforms: followUp.platforms.map((i) => body.platforms[i]),
        });
        const path = `regions.${r}.followUps.${f}`;
        // A follow-up never finishes the start: the run is running already.
        if (!(await this.deps.store.markSubmitted(run._id, path, token, error, null))) return;
      }
    }
    await this.deps.store.releaseClaim(run._id, token);
  }

  /** A start that fails for now (429, 503, a lost call) keeps its claim until it lapses, then resumes. */
  private async submitRegions(run: RunDoc, token: string): Promise<void> {
    await this.trySubmitRegions(run, token).catch((err: unknown) =>
      this.deps.warn(
        `monitor run ${run._id}: start interrupted, resumed once its claim lapses:`,
        err,
      ),
    );
  }

  private async trySubmitRegions(run: RunDoc, token: string): Promise<void> {
    const { store } = this.deps;
    const errors = run.regions.map((r) => r.error);
    const open = run.regions.flatMap((r, i) => (r.submitted ? [] : [i]));
    if (open.length === 0) {
      // Every region marked by a start that stopped before the run ran (written before the
      // last mark did both): only the run's status and the claim are left.
      await store.finishStart(
        run._id,
        token,
        errors.every((e) => e !== null),
      );
      return;
    }
    for (const i of open) {
      const region = run.regions[i]!;
      const body = regionBody(run, region.regionCode);
      const error = await this.submitOne(run.userId, region.taskId, run.samples, body);
      errors[i] = error;
      // The last region's mark also sets the run running (or failed) and frees the claim.
      const finish = i === open.at(-1) ? { allRefused: errors.every((e) => e !== null) } : null;
      if (!(await store.markSubmitted(run._id, `regions.${i}`, token, error, finish))) return;
    }
  }

  /** One task submitted; the refusal's reason, or null when it was taken (or was already). */
  private submitOne(
    userId: number,
    taskId: string,
    samples: number,
    body: Record<string, unknown>,
  ): Promise<string | null> {
    return this.deps.submit({ userId, body, taskId, samples }).then(
      () => null,
      (err: { code?: number; message?: string }) => refusal(err),
    );
  }
}

/** What a region's tasks ask: the run's body in the region. */
function regionBody(run: RunDoc, regionCode: string | null): Record<string, unknown> {
  return regionCode === null ? run.body : { ...run.body, regionCode: [regionCode] };
}

/**
 * A submission the tasks service refused for good (400: the platform or region
 * no longer takes work) fails its region with the reason; 409 is an earlier
 * submission of the same task. Anything else (429, 503, a lost call) is thrown,
 * and the claim lapses, so the start is tried again.
 */
function refusal(err: { code?: number; message?: string }): string | null {
  if (err.code === 409) return null;
  if (err.code === 400) return err.message ?? 'refused';
  throw err;
}
