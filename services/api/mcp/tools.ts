/**
 * The MCP tools: the REST API's reads and its submission, for assistants.
 * Each calls the same `tasks` / `proxies` actions as its route, with the
 * caller's user id, so a user's tools see only that user's tasks.
 */
import { z } from 'zod';
import { MODES } from '../../shared/platforms.js';
import { FINAL_TASK_STATUSES, type TaskStatus } from '../../shared/contracts/status.js';
import type { ListData, SubmitData, Visibility } from '../../shared/contracts/http.js';
import { PATHS, pathTo } from '../../shared/contracts/http-paths.js';
import { placeName } from '../../shared/brand/place.js';
import { submissionSchema } from '../../shared/requests/submission.js';
import {
  idSchema,
  listQuerySchema,
  platformsQuerySchema,
} from '../../shared/requests/task-queries.js';
import { cityInfoQuerySchema } from '../../shared/requests/city-query.js';
import { exportQuerySchema } from '../export/query.js';
import { AppError } from '../../shared/errors.js';
import { nodeRows } from '../operator-views.js';
import { platformEntries } from '../platform-views.js';
import { subTaskResultView, taskResultView } from '../result-views.js';
import { asQuery, excerpt, tool, type Caller, type Tool } from './tool-kit.js';
import { MONITOR_TOOLS } from './monitor-tools.js';

/** The longest wait one status call may ask for: well under common client request timeouts. */
export const MAX_WAIT_SECONDS = 50;
const RESULTS_PAGE = { default: 20, max: 50 };

const taskArgs = z.object({ taskId: idSchema });

const listPlatforms = tool({
  name: 'list_platforms',
  title: 'List platforms',
  description:
    'The AI platforms a batch can ask: channels (api, web), modes, and whether each channel is available now (optionally for work in one proxy region).',
  readOnly: true,
  idempotent: true,
  input: platformsQuerySchema,
  async run(args, c) {
    const platforms = await platformEntries(c.backend, asQuery(args));
    const ready = platforms.filter((p) => p.available === true).map((p) => p.platform);
    return {
      data: { platforms },
      summary: `${platforms.length} platforms; available now: ${ready.join(', ') || 'none'}`,
    };
  },
});

const submitBatch = tool({
  name: 'submit_batch',
  title: 'Submit a batch',
  description:
    'Asks every prompt on every platform configuration (prompts × platforms sub tasks). Returns the taskId; follow it with task_status.',
  readOnly: false,
  idempotent: false,
  // The same fields, without the schema's component id: a tool's input must be an inline object.
  input: z.object(submissionSchema.shape),
  async run(args, c) {
    const data = await c.backend.call<SubmitData>('tasks.submit', { userId: c.userId, body: args });
    return {
      data,
      summary: `submitted task ${data.taskId}: ${data.totalTask} sub tasks, status ${data.status}`,
    };
  },
});

const taskStatus = tool({
  name: 'task_status',
  title: 'Task status',
  description: `A task's status and counters; with waitSeconds (1 to ${MAX_WAIT_SECONDS}), waits until the task is final or the time is up.`,
  readOnly: true,
  idempotent: true,
  input: taskArgs.extend({
    waitSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .meta({ description: 'Wait up to this long for the task to finish (default 0: answer now)' }),
  }),
  async run({ taskId, waitSeconds = 0 }, c) {
    const until = Date.now() + waitSeconds * 1000;
    let status = await c.status(taskId);
    for (let pause = 250; !isFinal(status.status) && Date.now() < until; pause *= 2) {
      await new Promise((r) => setTimeout(r, Math.min(pause, 2000, until - Date.now())));
      status = await c.status(taskId);
    }
    return { data: status, summary: `task ${status.taskId}: ${status.status}, ${status.message}` };
  },
});

const taskResults = tool({
  name: 'task_results',
  title: 'Task results',
  description: `Sub task results of a task, a page at a time (at most ${RESULTS_PAGE.max}), optionally only one platform, one mode, or the answers that mention (or do not mention) a monitored brand.`,
  readOnly: true,
  idempotent: true,
  input: taskArgs.extend({
    platform: z.string().optional(),
    mode: z.enum(MODES).optional(),
    mentioned: z.boolean().optional(),
    offset: z.number().int().min(0).optional().meta({ description: 'Skip this many (default 0)' }),
    limit: z
      .number()
      .int()
      .min(1)
      .max(RESULTS_PAGE.max)
      .optional()
      .meta({ description: `Page size (default ${RESULTS_PAGE.default})` }),
  }),
  async run({ taskId, platform, mode, mentioned, offset = 0, limit = RESULTS_PAGE.default }, c) {
    const result = await taskResultView(c, c.userId, taskId);
    const matching = result.subTaskList.filter(
      (s) =>
        (platform === undefined || s.platform === platform.toLowerCase()) &&
        (mode === undefined || s.mode === mode) &&
        (mentioned === undefined || s.mentioned === mentioned),
    );
    const page = matching.slice(offset, offset + limit);
    const next = offset + page.length < matching.length ? offset + page.length : null;
    return {
      data: {
        taskId: result.taskId,
        status: result.status,
        total: matching.length,
        offset,
        nextOffset: next,
        subTaskList: page,
      },
      summary:
        `${page.length} of ${matching.length} matching sub tasks of task ${result.taskId} (${result.status})` +
        (next === null ? '' : `; more from offset ${next}`),
    };
  },
});

const subTaskResult = tool({
  name: 'subtask_result',
  title: 'One sub task',
  description: 'One sub task: its answer, sources, mentions and screenshots.',
  readOnly: true,
  idempotent: true,
  input: taskArgs.extend({ subTaskId: idSchema }),
  async run({ taskId, subTaskId }, c) {
    const s = await subTaskResultView(c, c.userId, taskId, subTaskId);
    const model = s.modelReported === null ? '' : `, model ${s.modelReported}`;
    const head = `${s.platform} (${s.channel}, ${s.mode}${model}): ${s.status}`;
    const answer = s.answerContent ? `; answer: ${excerpt(s.answerContent, 200)}` : '';
    return { data: s, summary: `${head}, mentioned: ${s.mentioned ? 'yes' : 'no'}${answer}` };
  },
});

const taskVisibility = tool({
  name: 'task_visibility',
  title: 'Brand visibility',
  description:
    "Per monitored brand and platform: mention rate, positions, share of voice, citation share, and each platform's most cited domains; the brands the answers recommend that nobody watched (discovered) and the domains cited where a competitor is named and the first brand is not (opportunities).",
  readOnly: true,
  idempotent: true,
  input: taskArgs,
  async run({ taskId }, c) {
    const v = await c.backend.call<Visibility>('tasks.visibility', { userId: c.userId, taskId });
    const lines = v.rows.map(
      (r) =>
        `${r.keyword} on ${placeName(r)}: ${Math.round(r.mentionRate * 100)} % of ${r.answers}`,
    );
    const discovered = v.discovered
      .slice(0, 5)
      .map((d) => `${d.name} (${d.answers} answers)`)
      .join(', ');
    const opportunities = v.opportunities
      .slice(0, 5)
      .map((o) => `${o.domain} (${o.answers} answers without the first brand)`)
      .join(', ');
    if (discovered) lines.push(`not watched: ${discovered}`);
    if (opportunities) lines.push(`sources to act on: ${opportunities}`);
    return { data: v, summary: lines.join('; ') || 'no monitored brand, or no answer yet' };
  },
});

const exportLink = tool({
  name: 'export_link',
  title: 'Export link',
  description:
    "The address of the task's export file (csv, ndjson or xlsx). Download it with the same bearer token.",
  readOnly: true,
  idempotent: true,
  input: taskArgs.extend(exportQuerySchema.shape),
  async run({ taskId, format, table }, c) {
    // Reading the status first makes an unknown or foreign task the same error as on REST.
    await c.status(taskId);
    const query = new URLSearchParams(asQuery({ format, table }));
    const url = `${c.base}${pathTo(PATHS.TASK_EXPORT, { taskId: taskId.toLowerCase() })}?${query}`;
    return { data: { url, format }, summary: url };
  },
});

const evidenceLink = tool({
  name: 'evidence_link',
  title: 'Evidence bundle link',
  description:
    'The address of the signed evidence bundle (a tar) of a task, or of one sub task with subTaskId, and of the public keys that verify it (docs/evidence.md). Download it with the same bearer token.',
  readOnly: true,
  idempotent: true,
  input: taskArgs.extend({ subTaskId: idSchema.optional() }),
  async run({ taskId, subTaskId }, c) {
    // Reading it first makes an unknown or foreign task the same error as on REST.
    if (subTaskId === undefined) await c.status(taskId);
    else await c.backend.call('tasks.evidenceFacts', { userId: c.userId, taskId, subTaskId });
    const ids = { taskId: taskId.toLowerCase() };
    const path =
      subTaskId === undefined
        ? pathTo(PATHS.TASK_EVIDENCE, ids)
        : pathTo(PATHS.SUBTASK_EVIDENCE, { ...ids, subTaskId: subTaskId.toLowerCase() });
    const url = c.base + path;
    return { data: { url, jwks: c.base + PATHS.JWKS }, summary: url };
  },
});

const cityLookup = tool({
  name: 'city_lookup',
  title: 'Proxy regions',
  description:
    'The regions (province and city codes) the service can ask from, with their proxy ports; a submission names one as regionCode.',
  readOnly: true,
  idempotent: true,
  input: cityInfoQuerySchema,
  async run({ deduplicate = false }, c) {
    const ports = await c.backend.call<{ regionCode?: string }[]>('proxies.cityInfo', {
      deduplicate,
    });
    return { data: { ports }, summary: `${ports.length} proxy ports` };
  },
});

const listTasks = tool({
  name: 'list_tasks',
  title: 'List tasks',
  description: "The caller's tasks, newest first, a page at a time, optionally by status.",
  readOnly: true,
  idempotent: true,
  input: listQuerySchema,
  async run(args, c) {
    const data = await c.backend.call<ListData>('tasks.list', {
      userId: c.userId,
      query: asQuery(args),
    });
    return {
      data,
      summary: `page ${data.page}: ${data.tasks.length} of ${data.total} tasks`,
    };
  },
});

const crawlerNodes = tool({
  name: 'crawler_nodes',
  title: 'Crawler nodes (operator)',
  description:
    'Operator role only: the crawler nodes, their regions, capacity, running sub tasks and proxy ports.',
  readOnly: true,
  idempotent: true,
  operatorOnly: true,
  input: z.object({}),
  async run(_args, c) {
    const nodes = nodeRows(await c.crawlerStates());
    const up = nodes.filter((n) => n.available).length;
    return { data: { nodes }, summary: `${nodes.length} crawler nodes, ${up} available` };
  },
});

export const TOOLS: readonly Tool[] = [
  listPlatforms,
  submitBatch,
  taskStatus,
  taskResults,
  subTaskResult,
  taskVisibility,
  exportLink,
  evidenceLink,
  cityLookup,
  listTasks,
  ...MONITOR_TOOLS,
  crawlerNodes,
];

function isFinal(status: TaskStatus): boolean {
  return FINAL_TASK_STATUSES.includes(status);
}

/** Refuses an operator tool to a caller without the role, as the operator routes do. */
export async function checkRole(t: Tool, c: Caller): Promise<void> {
  if (t.operatorOnly && !(await c.isOperator())) {
    throw AppError.forbidden('operator role required');
  }
}
