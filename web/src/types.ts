/** The API's shapes as the dashboard reads them (docs/api.md, the interface spec). */
import type { KeywordGroup, Mention, Visibility } from '../../services/shared/contracts/brand.js';
import type { Media, Reference } from '../../services/shared/contracts/answer.js';
import type { SubTaskSummary } from '../../services/shared/contracts/task-progress.js';
import { FINAL_TASK_STATUSES } from '../../services/shared/contracts/status.js';

export type { KeywordGroup, Mention, Reference, Visibility };
export type {
  SubTaskChange,
  SubTaskSummary,
  TaskDone,
  TaskStatusView,
} from '../../services/shared/contracts/task-progress.js';
export type { CityInfoRecord } from '../../services/shared/proxy-ports.js';
export { TASK_STATUSES, type TaskStatus } from '../../services/shared/contracts/status.js';
/** Widened to any text, so a status read off the wire can be looked up. */
export const FINAL_TASK: readonly string[] = FINAL_TASK_STATUSES;

export interface SubTaskResult extends SubTaskSummary {
  effectiveMode: string | null;
  time: number | null;
  pageScreenshot: string | null;
  mentionScreenshot: string | null;
  answerContent: string | null;
  referenceList: Reference[];
  citationList: Reference[];
  reasoningProcess: { summary: string; content: string } | null;
  recommendedQuestions: string[];
  mediaContent: Media[];
  errorMessage: string | null;
  proxyIp: string | null;
  mentions: Mention[];
  mentioned: boolean;
  rawEvidence?: string | null;
}

export interface TaskListItem {
  taskId: string;
  /** The submission's name; null: none. */
  name: string | null;
  prompts: string[];
  platforms: { platform: string; mode: string; channel?: string; screenshot: number }[];
  status: string;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  createdAt: number;
  completedAt: number | null;
}

export interface TaskPage {
  total: number;
  page: number;
  size: number;
  tasks: TaskListItem[];
}

export interface PlatformInfo {
  platform: string;
  label: string;
  modes: string[];
  channel: string;
  defaultChannel: string;
  channels: Record<string, string[]>;
  available: boolean | null;
  availableChannels: string[] | null;
}

/** One entry of a 400's `errors` list: `platforms[2].mode`, and what is wrong with it. */
export interface FieldProblem {
  field: string;
  message: string;
}

export interface Me {
  userId: number;
  name: string;
  role: string;
}
