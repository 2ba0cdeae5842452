/** How monitors and runs look on the wire (services/shared/contracts/monitors.ts), pure. */
import type { MonitorDoc, RunDoc, RunRegionDoc } from './models.js';
import type { CellSnapshot } from './snapshot.js';
import { ceiling, type Samples } from './figures/sampling.js';
import { wilson } from './figures/wilson.js';
import type { MonitorView, RunView } from '../shared/contracts/monitors.js';

export function monitorView(m: MonitorDoc): MonitorView {
  return {
    monitorId: m._id,
    name: m.name,
    prompts: m.prompts,
    platforms: m.platforms,
    regionCodes: m.regionCodes,
    monitorKeywords: m.monitorKeywords,
    samples: m.samples,
    schedule: m.schedule,
    callbackUrl: m.callbackUrl,
    // Monitors stored before the digest existed have no field: theirs is off.
    digest: m.digest === true,
    enabled: m.enabled,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    nextDueAt: m.enabled ? m.nextDueAt : null,
  };
}

/** Calls saved are counted against the run's own `samples.max` (or fixed count). */
export function runView(run: RunDoc, prompts: readonly string[]): RunView {
  const regions = run.regions.map((r) => regionView(r, prompts, run.sampling));
  const settled = regions.filter((r) => r.cells !== null);
  const sum = (pick: (r: (typeof settled)[number]) => number | null) =>
    settled.length === 0 ? null : settled.reduce((total, r) => total + (pick(r) ?? 0), 0);
  return {
    runId: run._id,
    monitorId: run.monitorId,
    trigger: run.trigger,
    slot: run.slot,
    status: run.status,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    samplesTaken: sum((r) => r.samplesTaken),
    samplesSaved: sum((r) => r.callsSaved),
    regions,
  };
}

function regionView(r: RunRegionDoc, prompts: readonly string[], samples: Samples) {
  const cells = r.cells?.map((c) => cellView(c, prompts, samples)) ?? null;
  return {
    regionCode: r.regionCode,
    taskId: r.taskId,
    submitted: r.submitted,
    taskStatus: r.taskStatus,
    error: r.error,
    followUps: r.followUps.map((f) => ({
      round: f.round,
      taskId: f.taskId,
      cells: f.prompts.length * f.platforms.length,
      samples: f.samples,
      submitted: f.submitted,
      error: f.error,
    })),
    samplesTaken: cells?.reduce((sum, c) => sum + c.samplesTaken, 0) ?? null,
    callsSaved: cells?.reduce((sum, c) => sum + c.callsSaved, 0) ?? null,
    cells,
  };
}

function cellView(c: CellSnapshot, prompts: readonly string[], samples: Samples) {
  return {
    prompt: prompts[c.prompt] ?? '',
    platform: c.platform,
    channel: c.channel,
    mode: c.mode,
    samplesTaken: c.asked,
    answered: c.answered,
    ranOtherMode: c.ranOtherMode,
    targetWidth: c.targetWidth,
    // The sampling rule watches the monitored brand: the first keyword entry.
    width: c.widthReached,
    callsSaved: Math.max(0, ceiling(samples) - c.asked),
    stability: c.stability,
    brands: c.groups.map((g) => ({
      keyword: g.keyword,
      mentionRate: wilson(g.mentioned, c.answered),
    })),
  };
}
