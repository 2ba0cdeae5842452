/** How monitors and runs look on the wire (services/shared/contracts/monitors.ts), pure. */
import type { MonitorDoc, RunDoc, RunRegionDoc } from './models.js';
import type { CellSnapshot } from './snapshot.js';
import { ceiling, type Samples } from './figures/sampling.js';
import { width, wilson } from './figures/wilson.js';
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

/** `samples`: the monitor's setting, against whose `max` the calls saved are counted. */
export function runView(run: RunDoc, prompts: readonly string[], samples: Samples): RunView {
  return {
    runId: run._id,
    monitorId: run.monitorId,
    trigger: run.trigger,
    slot: run.slot,
    status: run.status,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    regions: run.regions.map((r) => regionView(r, prompts, samples)),
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
    samplesTaken: cells?.reduce((sum, c) => sum + c.samplesTaken, 0) ?? null,
    callsSaved: cells?.reduce((sum, c) => sum + c.callsSaved, 0) ?? null,
    cells,
  };
}

function cellView(c: CellSnapshot, prompts: readonly string[], samples: Samples) {
  const rates = c.groups.map((g) => ({
    keyword: g.keyword,
    mentionRate: wilson(g.mentioned, c.answered),
  }));
  return {
    prompt: prompts[c.prompt] ?? '',
    platform: c.platform,
    channel: c.channel,
    mode: c.mode,
    samplesTaken: c.asked,
    answered: c.answered,
    // The sampling rule watches the monitored brand: the first keyword entry.
    width: rates[0] ? width(rates[0].mentionRate) : null,
    callsSaved: Math.max(0, ceiling(samples) - c.asked),
    stability: c.stability,
    brands: rates,
  };
}
