/** What a crawler node reports of each attempt (`tasks.settleBatch`) and what it hears back. */
import type { Answer } from './answer.js';
import type { Mode } from '../platforms.js';
import type { Failure } from './status.js';
import type { Settled } from './events.js';
import type { ReportedVerdict } from './web-outcomes.js';

export interface CompletedResult extends Answer {
  pageScreenshot: string | null;
  /** Screenshot mode 2, page taller than the viewport: the clip around the first mention. */
  mentionScreenshot?: string | null;
  /** Screenshot mode 2 that fell back to a plain screenshot, and why. */
  screenshotNote?: string | null;
  /** The mode that really ran (web: read from the captured request body); absent: the requested one. */
  effectiveMode?: Mode;
  /** Web channel: the stream format version the driver recognised, e.g. `deepseek-2026`. */
  formatVersion?: string;
  /** Web channel: the witness the answer came from, the stream or the rendered page (crawler/web/witness.ts). */
  answerSource?: 'stream' | 'dom';
  /** Web channel: id of the stored raw frames (services/shared/evidence.ts). */
  evidenceId?: string | null;
}

/**
 * What a crawler node reports of one attempt: an answer or a classified
 * failure, and the proxy port it went through (absent or null: direct).
 */
export interface SettleReport {
  subTaskId: string;
  /** The sub task's task, so its keyword groups are known before the answer is written. */
  taskId: string;
  token: string;
  /**
   * The lease's attempt number (1 = first), so a failure's retry is decided
   * without reading the sub task first.
   */
  attempt: number;
  result?: CompletedResult;
  failure?: Failure;
  proxyIp?: string | null;
  proxyKey?: string | null;
  /** Web channel: the account that ran the attempt. */
  accountId?: string | null;
  /** How long the attempt took on the node. */
  answerMs?: number;
  /** When the answered attempt started, epoch ms on the node's clock. */
  startedAt?: number;
  /** Web channel: what collector health counts of the attempt (services/tasks/collectors/). */
  web?: WebAttemptFacts;
}

export interface WebAttemptFacts {
  /** The lease's region; null: any. */
  regionCode: string | null;
  /** The account verdict the failure carried; absent: none (an answer, or a failure that says nothing of the account). */
  accountVerdict?: ReportedVerdict;
}

/** A crawler node's reports, gathered for a moment; each is taken or dropped on its own. */
export interface SettleRequest {
  reports: SettleReport[];
}

export interface SettleAnswer {
  results: { accepted: boolean; outcome?: Settled['outcome'] }[];
}
