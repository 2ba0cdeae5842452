/**
 * MongoDB documents of batch tasks and sub tasks. Hot paths use lean reads and
 * the native collection; the schemas define fields and the indexes every hot
 * query needs.
 */
import { Schema, type Connection, type Model } from 'mongoose';
import type { Channel, Mode } from '../platforms.js';
import type { Reference } from '../contracts/answer.js';
import type { DiscoveredEntry, Mention, SentimentVerdict } from '../contracts/brand.js';
import type { TaskStatus, SubTaskStatus } from '../contracts/status.js';
import type { InsightDigest } from '../brand/insight-digest.js';
import type { StoredInsights } from '../brand/stored-insights.js';

export interface TaskDoc {
  _id: string;
  userId: number;
  /** The submission's name; null: none (absent from tasks stored before names). */
  name?: string | null;
  prompts: string[];
  platforms: { platform: string; channel: Channel; mode: Mode; screenshot: 0 | 1 | 2 }[];
  regionCode: string | null;
  callbackUrl: string | null;
  monitorKeywords: string | null;
  keywords: string[];
  status: TaskStatus;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  createdAt: number;
  completedAt: number | null;
  /** Bumped by every change of one of its sub tasks; keys the status cache. */
  version: number;
  /** false until every sub task document is written; see TaskStore.repairUnwritten. */
  subtasksWritten: boolean;
  /**
   * A monitor's task: each cell (prompt × platform) is asked this many times,
   * each time its own sub task. Absent: a plain submission, once per cell.
   */
  samples?: number;
  /**
   * A submission sent with an Idempotency-Key (its id derived from the key):
   * the fingerprint of its request body, which a retry with the key must match.
   */
  requestFingerprint?: string;
  /**
   * Set with the final status (ledger.ts): the insights over all its answers
   * (services/shared/brand/stored-insights.ts). Absent on tasks finished
   * before they were stored, and on running ones: those are summed on read.
   * Left out of every read that does not ask for it (`+insights`).
   */
  insights?: StoredInsights | null;
}

export interface SubTaskDoc {
  _id: string;
  taskId: string;
  userId: number;
  seq: number;
  prompt: string;
  platform: string;
  /** The channel it runs on. */
  channel: Channel;
  /** The requested mode. */
  mode: Mode;
  screenshot: 0 | 1 | 2;
  /** A monitor's task only: which sample of its cell this is, from 0 (absent: a plain task). */
  sample?: number;
  /**
   * Final, and not yet added to its task's counters: the settler (node and
   * incarnation) that wrote it final, removed once that settle has added it
   * (ledger.ts). The counter mender waits while its settler runs, so a late
   * addition is never counted twice.
   */
  uncounted?: string;
  /** Screenshot mode 2 only: the task's keyword entries, for the crawler to highlight; absent = none. */
  keywords?: string[];
  status: SubTaskStatus;
  attempts: number;
  createdAt: number;
  /**
   * Absent means null (or an empty list): a sub task is written without
   * them (plan.ts) and they are set with its result or failure.
   */
  regionCode?: string | null;
  time?: number | null;
  pageScreenshot?: string | null;
  /** Screenshot mode 2: the clip around the first mention (absent: none). */
  mentionScreenshot?: string | null;
  /** Screenshot mode 2 that fell back to a plain screenshot, and why (absent: it did not). */
  screenshotNote?: string | null;
  answerContent?: string | null;
  referenceList?: Reference[];
  citationList?: Reference[];
  reasoningProcess?: { summary: string; content: string } | null;
  recommendedQuestions?: string[];
  mediaContent?: unknown[];
  errorMessage?: string | null;
  proxyIp?: string | null;
  /** Set with the answer: how long the crawler node's attempt took (the answer time figures). */
  answerMs?: number;
  /** Set with the answer: when the answered attempt started (epoch ms, the crawler node's clock). */
  startedAt?: number;
  /** Set with the answer: the mode that really ran (web: read from the site's own request). */
  effectiveMode?: Mode;
  /** Web channel, set with the answer: the stream format version the driver recognised. */
  formatVersion?: string | null;
  /**
   * Web channel, set with the answer: which witness the answer was taken from,
   * the stream (`stream`) or the rendered page when the two disagreed (`dom`).
   */
  answerSource?: 'stream' | 'dom' | null;
  /** Set with the answer: the model the platform reported (absent or null: none). */
  modelReported?: string | null;
  /** Web channel, set with the answer: id of the stored raw frames (services/shared/evidence.ts). */
  evidenceId?: string | null;
  /** Set with the answer: each keyword group's mentions (absent: none, or stored before). */
  mentions?: Mention[];
  mentioned?: boolean;
  /** Set with the answer: the brands it recommends that match no group (absent: stored before). */
  discovered?: DiscoveredEntry[];
  /**
   * Set with the answer: what the insights sum of it, as numbers
   * (services/shared/brand/insight-digest.ts); absent: stored before, made
   * when read.
   */
  insightDigest?: InsightDigest;
  /** The judge's verdicts per mentioned group; absent or null: no judge (yet). */
  sentiment?: SentimentVerdict[] | null;
  /** Set while the judge (services/tasks/judge.ts) owes verdicts; unset once it answered or gave up. */
  sentimentPending?: boolean;
  /** The judge takes it up from this time on (its hold while asking, then its backoff). */
  sentimentNotBefore?: number;
  sentimentAttempts?: number;
  /** Why the judge gave up; sentiment stays null. */
  sentimentError?: string | null;
  /** A pending sub task is not leased before this time (retry backoff). */
  notBefore?: number;
  /** The current lease: token, holder node and expiry; null when not leased. */
  leaseToken?: string | null;
  leaseNode?: string | null;
  leaseExpiresAt?: number | null;
  /**
   * The holder node's incarnation (its Moleculer instanceID) when the lease was taken: a node
   * restarted under the same ID is another instance, and the old one's leases go back at once.
   */
  leaseInstance?: string | null;
  /** Node of the latest attempt, so a retry can prefer another one. */
  lastNode?: string | null;
  /** Proxy port (`host:port`) of the latest attempt, so a retry can prefer another one. */
  lastProxy?: string | null;
  /** Web channel: the account of the latest attempt, so a retry claims another one. */
  lastAccount?: string | null;
}

export type SubTaskSummaryDoc = Pick<
  SubTaskDoc,
  '_id' | 'prompt' | 'platform' | 'channel' | 'mode' | 'status'
>;

const taskSchema = new Schema<TaskDoc>(
  {
    _id: String,
    userId: { type: Number, required: true },
    name: { type: String, default: null },
    prompts: [String],
    platforms: [
      { _id: false, platform: String, channel: String, mode: String, screenshot: Number },
    ],
    regionCode: { type: String, default: null },
    callbackUrl: { type: String, default: null },
    monitorKeywords: { type: String, default: null },
    keywords: [String],
    status: { type: String, required: true },
    totalItems: Number,
    completedItems: Number,
    failedItems: Number,
    createdAt: Number,
    completedAt: { type: Number, default: null },
    version: Number,
    subtasksWritten: Boolean,
    samples: Number,
    requestFingerprint: String,
    insights: { type: Schema.Types.Mixed, select: false },
  },
  { versionKey: false, collection: 'tasks' },
);
taskSchema.index({ userId: 1, createdAt: -1 });
taskSchema.index({ userId: 1, status: 1, createdAt: -1 });
taskSchema.index({ subtasksWritten: 1, createdAt: 1 });
// The callbacks sweep reads finished tasks in completion order.
taskSchema.index({ completedAt: 1 });

const subTaskSchema = new Schema<SubTaskDoc>(
  {
    _id: String,
    taskId: { type: String, required: true },
    userId: Number,
    seq: Number,
    prompt: String,
    platform: String,
    channel: String,
    mode: String,
    screenshot: Number,
    sample: Number,
    keywords: { type: [String], default: undefined },
    regionCode: { type: String, default: null },
    status: String,
    time: { type: Number, default: null },
    uncounted: String,
    pageScreenshot: { type: String, default: null },
    mentionScreenshot: String,
    screenshotNote: String,
    answerContent: { type: String, default: null },
    referenceList: [Schema.Types.Mixed],
    citationList: [Schema.Types.Mixed],
    reasoningProcess: { type: Schema.Types.Mixed, default: null },
    recommendedQuestions: [String],
    mediaContent: [Schema.Types.Mixed],
    errorMessage: { type: String, default: null },
    proxyIp: { type: String, default: null },
    answerMs: Number,
    startedAt: Number,
    effectiveMode: String,
    mentions: [Schema.Types.Mixed],
    mentioned: Boolean,
    discovered: [Schema.Types.Mixed],
    insightDigest: [Number],
    sentiment: { type: Schema.Types.Mixed, default: null },
    sentimentPending: Boolean,
    sentimentNotBefore: Number,
    sentimentAttempts: Number,
    sentimentError: String,
    formatVersion: { type: String, default: null },
    answerSource: { type: String, default: null },
    modelReported: { type: String, default: null },
    evidenceId: { type: String, default: null },
    attempts: Number,
    createdAt: Number,
    notBefore: Number,
    leaseToken: { type: String, default: null },
    leaseNode: { type: String, default: null },
    leaseExpiresAt: { type: Number, default: null },
    leaseInstance: String,
    lastNode: { type: String, default: null },
    lastProxy: { type: String, default: null },
    lastAccount: { type: String, default: null },
  },
  { versionKey: false, collection: 'subtasks' },
);
subTaskSchema.index({ taskId: 1, seq: 1 });
// Also serves the leases of one node (status processing, then leaseNode: a few
// hundred documents at most); an index of its own on leaseNode would be one
// more index write on every claim and every result.
subTaskSchema.index({ status: 1, createdAt: 1 });
// The judge's queue: only answers waiting for verdicts carry the field.
subTaskSchema.index({ sentimentPending: 1, sentimentNotBefore: 1 }, { sparse: true });

export interface TaskModels {
  Task: Model<TaskDoc>;
  SubTask: Model<SubTaskDoc>;
}

export function taskModels(connection: Connection): TaskModels {
  return {
    Task:
      (connection.models.Task as Model<TaskDoc>) ?? connection.model<TaskDoc>('Task', taskSchema),
    SubTask:
      (connection.models.SubTask as Model<SubTaskDoc>) ??
      connection.model<SubTaskDoc>('SubTask', subTaskSchema),
  };
}
