/**
 * What an evidence bundle (services/api/evidence/) says of a sub task, as the
 * `tasks` service reads it from the sub task and its task: the facts of its
 * manifest, and the stored result the api turns into the served one for
 * `result.json` (services/api/evidence/bundle.ts servedResult).
 */
import type { SubTaskDoc, TaskDoc } from './subtasks/models.js';
import { subTaskResult } from './task-views.js';

export interface EvidenceFacts {
  taskId: string;
  subTaskId: string;
  seq: number;
  platform: string;
  channel: string;
  requestedMode: string;
  effectiveMode: string | null;
  status: string;
  /** The submission as the sub task got it: prompt, screenshot mode, region. */
  submitted: { prompt: string; screenshot: number; regionCode: string | null };
  /** The web account of the latest attempt (its id; the api adds the label). */
  accountId: string | null;
  proxyExitAddress: string | null;
  /** Stream format (parser) version the web driver recognised. */
  formatVersion: string | null;
  /**
   * Epoch ms. The start as the crawler node recorded it; for an answer stored
   * before nodes reported it, the end less the attempt's answer time.
   */
  startedAt: number | null;
  endedAt: number | null;
  pageScreenshot: string | null;
  mentionScreenshot: string | null;
  result: ReturnType<typeof subTaskResult>;
}

export interface EvidencePage {
  taskId: string;
  items: EvidenceFacts[];
}

export function evidenceFacts(
  sub: SubTaskDoc,
  task: Pick<TaskDoc, 'regionCode'> | null,
): EvidenceFacts {
  const endedAt = sub.time ?? null;
  const result = subTaskResult(sub);
  return {
    taskId: sub.taskId,
    subTaskId: sub._id,
    seq: sub.seq,
    platform: sub.platform,
    channel: sub.channel,
    requestedMode: sub.mode,
    effectiveMode: result.effectiveMode,
    status: sub.status,
    submitted: {
      prompt: sub.prompt,
      screenshot: sub.screenshot,
      regionCode: sub.regionCode ?? task?.regionCode ?? null,
    },
    accountId: sub.lastAccount ?? null,
    proxyExitAddress: sub.proxyIp ?? null,
    formatVersion: sub.formatVersion ?? null,
    startedAt: sub.startedAt ?? startOf(endedAt, sub.answerMs),
    endedAt,
    pageScreenshot: sub.pageScreenshot ?? null,
    mentionScreenshot: sub.mentionScreenshot ?? null,
    result,
  };
}

const startOf = (endedAt: number | null, answerMs: number | undefined): number | null =>
  endedAt !== null && answerMs !== undefined ? endedAt - answerMs : null;
