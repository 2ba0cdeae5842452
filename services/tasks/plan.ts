/** Expands a validated submission into its task and sub task documents, pure. */
import { subTaskIdFor } from '../shared/ids.js';
import type { SubTaskDoc, TaskDoc } from '../shared/subtasks/models.js';
import type { Submission } from '../shared/requests/submission.js';

/** `samples`: a monitor's asks per cell (services/monitors); absent, a plain task asks once. */
export function planTask(
  taskId: string,
  userId: number,
  s: Submission,
  now: number,
  samples?: number,
): TaskDoc {
  const task: TaskDoc = {
    _id: taskId,
    userId,
    name: s.name,
    prompts: s.prompts,
    platforms: s.platforms,
    regionCode: s.regionCode,
    callbackUrl: s.callbackUrl,
    monitorKeywords: s.monitorKeywords,
    keywords: s.keywords,
    status: 'pending',
    totalItems: s.prompts.length * s.platforms.length * (samples ?? 1),
    completedItems: 0,
    failedItems: 0,
    createdAt: now,
    completedAt: null,
    version: 0,
    subtasksWritten: false,
  };
  if (samples !== undefined) task.samples = samples;
  return task;
}

/**
 * Sub tasks in prompt-major order: every platform of prompt 1, then of prompt 2, …
 * A monitor's task asks each cell `samples` times in a row, each sample its own
 * sub task with its index: samples are never merged like duplicate cells.
 * Only what a sub task is: its result fields (time, answer, lists, error, proxy)
 * and a null region are absent until set, and readers take absence as null or
 * empty (views.subTaskResult, queue-item.toQueueItem). A leaner document is a
 * cheaper insert, and a submission writes up to 2,500 of them.
 */
export function planSubTasks(task: TaskDoc): SubTaskDoc[] {
  const subtasks: SubTaskDoc[] = [];
  const samples = task.samples ?? 1;
  task.prompts.forEach((prompt, p) => {
    task.platforms.forEach((cfg, c) => {
      const cell = p * task.platforms.length + c;
      for (let sample = 0; sample < samples; sample++) {
        subtasks.push(planSubTask(task, prompt, cfg, cell * samples + sample, sample));
      }
    });
  });
  return subtasks;
}

function planSubTask(
  task: TaskDoc,
  prompt: string,
  cfg: TaskDoc['platforms'][number],
  seq: number,
  sample: number,
): SubTaskDoc {
  const sub: SubTaskDoc = {
    _id: subTaskIdFor(task._id, seq),
    taskId: task._id,
    userId: task.userId,
    seq,
    prompt,
    platform: cfg.platform,
    channel: cfg.channel,
    mode: cfg.mode,
    screenshot: cfg.screenshot,
    status: 'pending',
    attempts: 0,
    createdAt: task.createdAt,
  };
  if (task.samples !== undefined) sub.sample = sample;
  if (task.regionCode !== null) sub.regionCode = task.regionCode;
  // Only screenshots of mentions need the keywords on the crawler (its lease).
  if (cfg.screenshot === 2 && task.keywords.length > 0) sub.keywords = task.keywords;
  return sub;
}
