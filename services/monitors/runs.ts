/**
 * Starting a run: one task per region with the monitor's cells × samples,
 * submitted through `tasks.submit` like any batch. A run is created with its
 * task ids and under a start claim (services/shared/claim.ts); the claim's
 * holder submits the regions, then marks them all in one write (the runs due
 * in one tick together: a constant number of round trips). A holder that dies
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
import type { MonitorStore, StartMark } from './store.js';

export interface SubmitCall {
  userId: number;
  body: Record<string, unknown>;
  taskId: string;
  samples: number;
}

/** A slot to start a monitor's run for. */
export interface RunStart {
  monitor: MonitorDoc;
  trigger: RunDoc['trigger'];
  slot: number;
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
    const [run] = await this.createMany([{ monitor, trigger, slot }], now);
    return run ?? null;
  }

  /**
   * Creates and starts the runs of several slots (the monitors due in one
   * tick) in a constant number of round trips: one insert of every run with
   * its task ids, one read of which were new, the submissions, and one write
   * of every mark. Returns the runs this node created; a slot whose run exists
   * already (another node's) is left out.
   */
  async createMany(starts: RunStart[], now: number): Promise<RunDoc[]> {
    if (starts.length === 0) return [];
    const lease = newLease(now, this.deps.claimMs);
    const claim = { token: lease.token, holder: this.deps.holder, expiresAt: lease.expiresAt };
    const planned = starts.map((s) => planRun(s.monitor, s.trigger, s.slot, now, claim));
    const created = await this.deps.store.createRuns(planned);
    const runs = planned.filter((run) => created.has(run._id));
    const marks: StartMark[] = [];
    for (const run of runs) {
      const mark = await this.submitRegions(run, lease.token);
      if (mark) marks.push(mark);
    }
    await this.deps.store.markStarts(marks);
    return runs;
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
      const mark = await this.submitRegions(run, lease.token);
      if (mark) await this.deps.store.markStarts([mark]);
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
        if (!(await this.deps.store.markSubmitted(run._id, path, token, error))) return;
      }
    }
    await this.deps.store.releaseClaim(run._id, token);
  }

  /**
   * Submits the run's regions not yet marked; the marks to write, or null
   * when a submission failed for now (429, 503, a lost call): the start then
   * keeps its claim until it lapses and resumes, and a task it did submit
   * answers 409 then.
   */
  private async submitRegions(run: RunDoc, token: string): Promise<StartMark | null> {
    return this.trySubmitRegions(run, token).catch((err: unknown) => {
      this.deps.warn(
        `monitor run ${run._id}: start interrupted, resumed once its claim lapses:`,
        err,
      );
      return null;
    });
  }

  private async trySubmitRegions(run: RunDoc, token: string): Promise<StartMark> {
    const errors = run.regions.map((r) => r.error);
    const regions: StartMark['regions'] = [];
    // Every region marked already by a start that stopped before the run ran leaves only the status.
    for (const [index, region] of run.regions.entries()) {
      if (region.submitted) continue;
      const error = await this.submitOne(
        run.userId,
        region.taskId,
        run.samples,
        regionBody(run, region.regionCode),
      );
      errors[index] = error;
      regions.push({ index, error });
    }
    return { runId: run._id, token, regions, allRefused: errors.every((e) => e !== null) };
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
