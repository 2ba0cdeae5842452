/**
 * The MCP tools of monitors (docs/monitors.md): create one, list them, run
 * one now, read its runs, its trends and its changes, watch a brand, through the same
 * `monitors` actions as the REST routes, as the caller.
 */
import { z } from 'zod';
import type { MonitorView, RunView, WatchResult } from '../../shared/contracts/monitors.js';
import { watchInputSchema } from '../../shared/requests/monitor-watch.js';
import { monitorInputSchema } from '../../shared/requests/monitor.js';
import { changesQuerySchema, trendsQuerySchema } from '../../shared/requests/monitor-queries.js';
import { idSchema, pageQuerySchema } from '../../shared/requests/task-queries.js';
import type { Trends } from '../../shared/contracts/monitor-trends.js';
import { asQuery, tool, type Caller, type Tool } from './tool-kit.js';
import { trendsSummary } from './trends-summary.js';

const monitorArgs = z.object({ monitorId: idSchema });

/** A `monitors` read of one monitor with a query (runs, trends, changes), as the caller. */
const readMonitor = <T>(
  action: string,
  c: Caller,
  monitorId: string,
  query: Record<string, unknown>,
): Promise<T> =>
  c.backend.call<T>(`monitors.${action}`, { userId: c.userId, monitorId, query: asQuery(query) });

const createMonitor = tool({
  name: 'monitor_create',
  title: 'Create a monitor',
  description:
    'A recurring study: prompts × platforms per region, asked on a schedule (cron in a time zone, or every N minutes), each cell sampled several times; see docs/monitors.md.',
  readOnly: false,
  idempotent: false,
  // The same fields, without the schema's component id: a tool's input must be an inline object.
  input: z.object(monitorInputSchema.shape),
  async run(args, c) {
    const m = await c.backend.call<MonitorView>('monitors.create', {
      userId: c.userId,
      body: args,
    });
    return { data: m, summary: `created monitor ${m.monitorId} (${m.name})` };
  },
});

const listMonitors = tool({
  name: 'monitor_list',
  title: 'List monitors',
  description: "The caller's monitors, a page at a time.",
  readOnly: true,
  idempotent: true,
  input: pageQuerySchema,
  async run(args, c) {
    const data = await c.backend.call<{ total: number; page: number; monitors: MonitorView[] }>(
      'monitors.list',
      { userId: c.userId, query: asQuery(args) },
    );
    return {
      data,
      summary: `page ${data.page}: ${data.monitors.length} of ${data.total} monitors`,
    };
  },
});

const runMonitor = tool({
  name: 'monitor_run',
  title: 'Run a monitor now',
  description: 'Starts a run of the monitor now, beside its schedule: one task per region.',
  readOnly: false,
  idempotent: false,
  input: monitorArgs,
  async run({ monitorId }, c) {
    const run = await c.backend.call<RunView>('monitors.runNow', { userId: c.userId, monitorId });
    return { data: run, summary: `run ${run.runId} of monitor ${run.monitorId}: ${run.status}` };
  },
});

const monitorRuns = tool({
  name: 'monitor_runs',
  title: "A monitor's runs",
  description:
    "A monitor's runs, newest first, with their tasks and each cell's mention-rate figures.",
  readOnly: true,
  idempotent: true,
  input: monitorArgs.extend(pageQuerySchema.shape),
  async run({ monitorId, ...page }, c) {
    const data = await readMonitor<{ total: number; page: number; runs: RunView[] }>(
      'runs',
      c,
      monitorId,
      page,
    );
    return { data, summary: `page ${data.page}: ${data.runs.length} of ${data.total} runs` };
  },
});

/** What the summary reads of the `monitors.changes` answer. */
interface ChangesData {
  definitionsVersion: number;
  changes: { kind: string }[];
}

const monitorTrends = tool({
  name: 'monitor_trends',
  title: "A monitor's trends",
  description:
    "Per run and keyword, grouped by platform, region, channel, tag or mode: the mention rate with its 95 % interval, position, share of voice, citation share, top cited domains, answer stability, the funnel from reasoning to answer, the models the platforms reported (a marker where they changed), the brands the answers recommend that no group watches (discovered: share per run with its interval; watch one with monitor_watch), the newest run's discovered brands and citation opportunities (insights), and, per prompt asked on one platform over both channels, the gap between its API and web mention rates (API − web) with its 95 % interval; each figure's definition is in docs/monitors.md under the response's definitionsVersion.",
  readOnly: true,
  idempotent: true,
  input: monitorArgs.extend(trendsQuerySchema.shape),
  async run({ monitorId, ...query }, c) {
    const data = await readMonitor<Trends>('trends', c, monitorId, query);
    return { data: data as unknown as Record<string, unknown>, summary: trendsSummary(data) };
  },
});

const monitorChanges = tool({
  name: 'monitor_changes',
  title: "A monitor's changes",
  description:
    'Changes between consecutive runs larger than the noise (a brand gained or lost, a position moved by 2 or more, a cited domain added or removed, a competitor appeared, a discovered brand new to the monitor or risen) and slow drifts, newest first.',
  readOnly: true,
  idempotent: true,
  input: monitorArgs.extend(changesQuerySchema.shape),
  async run({ monitorId, ...query }, c) {
    const data = await readMonitor<ChangesData>('changes', c, monitorId, query);
    const kinds = [...new Set(data.changes.map((x) => x.kind))];
    return {
      data: data as unknown as Record<string, unknown>,
      summary:
        `${data.changes.length} changes` + (kinds.length > 0 ? ` (${kinds.join(', ')})` : ''),
    };
  },
});

const watchBrand = tool({
  name: 'monitor_watch',
  title: 'Watch a brand in a monitor',
  description:
    "Adds a brand (typically one of monitor_trends' discovered brands: recommended in the answers, watched by no group) to the monitor's monitorKeywords as a group of its own, so that the next run measures it like any group. Idempotent: a name the monitor watches already (same key: case, width and punctuation aside) changes nothing (added false) and names the group.",
  readOnly: false,
  idempotent: true,
  input: monitorArgs.extend(watchInputSchema.shape),
  async run({ monitorId, name }, c) {
    const data = await c.backend.call<WatchResult>('monitors.watch', {
      userId: c.userId,
      monitorId,
      body: { name },
    });
    return {
      data,
      summary: data.added
        ? `now watching ${data.keyword} in monitor ${monitorId}; the next run measures it`
        : `monitor ${monitorId} watches it already, as the group ${data.keyword}`,
    };
  },
});

export const MONITOR_TOOLS: readonly Tool[] = [
  createMonitor,
  listMonitors,
  runMonitor,
  monitorRuns,
  monitorTrends,
  monitorChanges,
  watchBrand,
];
