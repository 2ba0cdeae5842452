/** How stored tasks and sub tasks look on the wire (spec 2.2, 2.3, 4.x), pure. */
import type { SubTaskDoc, SubTaskSummaryDoc, TaskDoc } from './subtasks/models.js';
import { keywordGroups } from './brand/groups.js';
import { usableInsights, visibilityWith } from './brand/stored-insights.js';
import type { SubTaskSummary, TaskStatusView } from './contracts/task-progress.js';
import type { Mode } from './platforms/definition.js';
import { PATHS, pathTo } from './contracts/http-paths.js';

/**
 * The answer to a submission (spec 4.1). `replayed`: the answer to a retry with
 * the Idempotency-Key of an earlier one; the api sends it as the
 * `Idempotent-Replayed` header, not in the body.
 */
export function submitAnswer(
  { task, subtasks }: { task: TaskDoc; subtasks: SubTaskSummaryDoc[] },
  replayed: boolean,
) {
  return {
    taskId: task._id,
    totalTask: task.totalItems,
    status: task.status,
    pollUrl: pathTo(PATHS.TASK_STATUS, { taskId: task._id }),
    subTaskList: subtasks.map(subTaskSummary),
    ...(replayed ? { replayed: true as const } : {}),
  };
}

export function subTaskSummary(s: SubTaskSummaryDoc): SubTaskSummary {
  return {
    subTaskId: s._id,
    prompt: s.prompt,
    platform: s.platform,
    channel: s.channel,
    mode: s.mode,
    status: s.status,
  };
}

export function subTaskResult(s: SubTaskDoc) {
  return {
    subTaskId: s._id,
    platform: s.platform,
    channel: s.channel,
    mode: s.mode,
    effectiveMode: effectiveModeOf(s),
    formatVersion: s.formatVersion ?? null,
    answerSource: s.answerSource ?? null,
    modelReported: s.modelReported ?? null,
    prompt: s.prompt,
    status: s.status,
    time: s.time ?? null,
    pageScreenshot: s.pageScreenshot ?? null,
    mentionScreenshot: s.mentionScreenshot ?? null,
    screenshotNote: s.screenshotNote ?? null,
    answerContent: s.answerContent ?? null,
    referenceList: s.referenceList ?? [],
    citationList: s.citationList ?? [],
    reasoningProcess: s.reasoningProcess ?? null,
    recommendedQuestions: s.recommendedQuestions ?? [],
    mediaContent: s.mediaContent ?? [],
    errorMessage: s.errorMessage ?? null,
    proxyIp: s.proxyIp ?? null,
    mentions: s.mentions ?? [],
    mentioned: s.mentioned ?? false,
    sentiment: s.sentiment ?? null,
  };
}

/**
 * The mode that really ran, once answered. An answer stored before effective
 * modes were recorded ran the requested one (a crawler node that reports
 * none ran it as asked).
 */
function effectiveModeOf(s: SubTaskDoc): Mode | null {
  return s.effectiveMode ?? (s.status === 'completed' ? s.mode : null);
}

/** Screenshots are stored as paths; clients get absolute URLs on the given base address. */
export function absoluteScreenshot<
  T extends { pageScreenshot: string | null; mentionScreenshot?: string | null },
>(sub: T, base: string): T {
  if (sub.pageScreenshot?.startsWith('/')) sub.pageScreenshot = base + sub.pageScreenshot;
  if (sub.mentionScreenshot?.startsWith('/')) sub.mentionScreenshot = base + sub.mentionScreenshot;
  return sub;
}

/** The progress text of the status endpoint, e.g. "12/50 completed, 3 failed". */
export function progressMessage(total: number, completed: number, failed: number): string {
  return `${completed}/${total} completed, ${failed} failed`;
}

export function counters(t: TaskDoc) {
  return { totalItems: t.totalItems, completedItems: t.completedItems, failedItems: t.failedItems };
}

export function taskStatusView(t: TaskDoc, subtasks: SubTaskSummaryDoc[]): TaskStatusView {
  return {
    taskId: t._id,
    name: t.name ?? null,
    status: t.status,
    message: progressMessage(t.totalItems, t.completedItems, t.failedItems),
    ...counters(t),
    createdAt: t.createdAt,
    completedAt: t.completedAt ?? null,
    subTaskList: subtasks.map(subTaskSummary),
  };
}

export type TaskResultView = ReturnType<typeof taskResultView>;

export function taskResultView(t: TaskDoc, subtasks: SubTaskDoc[]) {
  return {
    taskId: t._id,
    name: t.name ?? null,
    status: t.status,
    ...counters(t),
    subTaskList: subtasks.map(subTaskResult),
    visibility: visibilityView(t, subtasks),
  };
}

/**
 * The task's brand visibility over the sub tasks answered so far
 * (services/shared/brand/): a final task's insights as stored when it became
 * final (`insights`, read with `+insights`), else summed from `subtasks`.
 */
export function visibilityView(
  t: Pick<TaskDoc, 'keywords' | 'status' | 'insights'>,
  subtasks: Iterable<
    Pick<
      SubTaskDoc,
      | '_id'
      | 'platform'
      | 'channel'
      | 'mode'
      | 'effectiveMode'
      | 'status'
      | 'prompt'
      | 'mentions'
      | 'discovered'
      | 'insightDigest'
      | 'citationList'
      | 'referenceList'
    >
  >,
) {
  return visibilityWith(keywordGroups(t.keywords ?? []), subtasks, usableInsights(t));
}

export function taskListItem(t: TaskDoc) {
  return {
    taskId: t._id,
    name: t.name ?? null,
    prompts: t.prompts,
    platforms: t.platforms.map((p) => ({
      mode: p.mode,
      platform: p.platform,
      channel: p.channel,
      screenshot: p.screenshot,
    })),
    status: t.status,
    ...counters(t),
    createdAt: t.createdAt,
    completedAt: t.completedAt ?? null,
  };
}
