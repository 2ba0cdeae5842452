/**
 * One measured batch: clients submit tasks of up to 50 prompts side by side,
 * a sampler counts `processing` sub tasks in MongoDB, and a poller waits until
 * no task is pending or processing, as a client would. Then the stored tasks
 * and sub tasks say when each result was recorded and each task became final.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type mongoose from 'mongoose';
import { request } from '../common.js';
import { countBy, taskSizes, type SubResult, type TaskEnd } from './figures.js';
import { PATHS } from '../../services/shared/contracts/http-paths.js';

/** The submit limit is 50 prompts; one platform per task (platforms dedupe by name). */
export const PROMPTS_PER_TASK = 50;

const now = () => performance.timeOrigin + performance.now();

export interface PhaseInput {
  base: string;
  token: string;
  db: mongoose.Connection;
  platform: string;
  /** The channel asked for; absent: the platform's default. */
  channel?: 'api' | 'web';
  subtasks: number;
  /** Starts each prompt, so that every phase's prompts differ. */
  label: string;
  deadlineMs: number;
  submitters: number;
  sampleMs: number;
  pollMs: number;
  /** Runs after each `processing` sample (the web phase samples memory there). */
  onSample?: () => Promise<void>;
}

export interface PhaseResult {
  taskIds: string[];
  submitStart: number;
  submitEnd: number;
  submitMs: number[];
  /** When each submit was answered. */
  submitDone: number[];
  /** When the poller saw every task final. */
  observedEnd: number;
  /** Latest task completedAt (the exact moment the last task became final). */
  finalAt: number;
  taskStatuses: Record<string, number>;
  subStatuses: Record<string, number>;
  retried: number;
  /** Up to five distinct error messages. */
  errors: string[];
  /** `processing` sub tasks counted at `t`, the count taking `ms`. */
  processing: { t: number; n: number; ms: number }[];
  tasks: TaskEnd[];
  subs: SubResult[];
}

export async function runPhase(input: PhaseInput): Promise<PhaseResult> {
  const subtasksCol = input.db.collection('subtasks');
  const processing: PhaseResult['processing'] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const t0 = now();
      const n = await subtasksCol.countDocuments({ status: 'processing' }).catch(() => NaN);
      processing.push({ t: t0, n, ms: now() - t0 });
      await input.onSample?.();
      await sleep(Math.max(0, input.sampleMs - (now() - t0)));
    }
  })();
  try {
    const submitted = await submitAll(input);
    const observedEnd = await untilAllFinal(input, submitted.submitStart);
    sampling = false;
    await sampler;
    return {
      ...submitted,
      observedEnd,
      processing,
      ...(await readOutcome(input.db, submitted.taskIds)),
    };
  } finally {
    sampling = false;
    await sampler;
  }
}

/** `submitters` clients submit side by side, as a team's scripts would. */
async function submitAll(input: PhaseInput) {
  const sizes = taskSizes(input.subtasks, PROMPTS_PER_TASK);
  const taskIds = new Array<string>(sizes.length);
  const submitMs: number[] = [];
  const submitDone: number[] = [];
  const submitOne = async (k: number, n: number): Promise<string> => {
    const body = {
      monitorKeywords: 'Acme, 阿克米',
      prompts: Array.from(
        { length: n },
        (_, i) => `${input.label} task ${k + 1}, question ${i + 1}: which CRM suits a small team?`,
      ),
      platforms: [
        {
          platform: input.platform,
          ...(input.channel ? { channel: input.channel } : {}),
          mode: 'standard',
          screenshot: 0,
        },
      ],
    };
    const t0 = now();
    const res = await request(input.base, 'POST', PATHS.TASK_SUBMIT, input.token, body);
    submitMs.push(now() - t0);
    submitDone.push(now());
    if (res.status !== 200 || res.body?.data?.totalTask !== n) {
      throw new Error(`submit ${k} failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body.data.taskId as string;
  };
  let next = 0;
  const submitter = async () => {
    for (let k = next++; k < sizes.length; k = next++) taskIds[k] = await submitOne(k, sizes[k]!);
  };
  const submitStart = now();
  await Promise.all(Array.from({ length: Math.min(input.submitters, sizes.length) }, submitter));
  return { taskIds, submitStart, submitEnd: now(), submitMs, submitDone };
}

/** Every task final, as a client sees it: no pending and no processing task left. */
async function untilAllFinal(input: PhaseInput, submitStart: number): Promise<number> {
  const deadline = submitStart + input.deadlineMs;
  for (;;) {
    const [p, q] = await Promise.all(
      ['pending', 'processing'].map((st) =>
        request(input.base, 'GET', `${PATHS.TASK_LIST}?status=${st}&size=1`, input.token),
      ),
    );
    if (p!.status !== 200 || q!.status !== 200)
      throw new Error(`list failed: ${p!.status} ${q!.status}`);
    if (p!.body.data.total === 0 && q!.body.data.total === 0) return now();
    if (now() > deadline)
      throw new Error(
        `${input.label}: not finished after ${(input.deadlineMs / 1000).toFixed(2)} s: ` +
          `${p!.body.data.total} pending, ${q!.body.data.total} processing tasks`,
      );
    await sleep(input.pollMs);
  }
}

async function readOutcome(db: mongoose.Connection, taskIds: string[]) {
  const tasks = await db
    .collection('tasks')
    .find({ _id: { $in: taskIds } } as never, { projection: { status: 1, completedAt: 1 } })
    .toArray();
  const subs = await db
    .collection('subtasks')
    .find(
      { taskId: { $in: taskIds } },
      {
        projection: {
          status: 1,
          attempts: 1,
          errorMessage: 1,
          prompt: 1,
          time: 1,
          taskId: 1,
          lastNode: 1,
        },
      },
    )
    .toArray();
  const errors = new Set<string>();
  for (const d of subs) {
    if (d.errorMessage && errors.size < 5) errors.add(String(d.errorMessage));
  }
  return {
    finalAt: Math.max(0, ...tasks.map((t) => Number(t.completedAt ?? 0))),
    taskStatuses: countBy(tasks.map((t) => String(t.status))),
    subStatuses: countBy(subs.map((d) => String(d.status))),
    retried: subs.filter((d) => Number(d.attempts) > 1).length,
    errors: [...errors],
    tasks: tasks.map((x) => ({ id: String(x._id), completedAt: Number(x.completedAt ?? 0) })),
    subs: subs.map((d) => ({
      taskId: String(d.taskId),
      prompt: String(d.prompt),
      time: Number(d.time ?? 0),
      node: String(d.lastNode),
    })),
  };
}
