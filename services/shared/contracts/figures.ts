/**
 * The business figures the api's `/metrics` exposes, as the services that own
 * the data answer them (`tasks.figures`, `callbacks.figures`). They are read
 * from the shared database, so every api node reports the same cluster-wide
 * numbers whichever node counted them.
 */
import type { WebOutcome } from './web-outcomes.js';

/** Upper bounds (seconds) of the answer time histogram buckets; +Inf is implied. */
export const ANSWER_SECONDS_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300] as const;

export interface SubTaskCount {
  platform: string;
  channel: string;
  status: string;
  count: number;
}

/** One platform × channel's completed answers: cumulative bucket counts, as Prometheus wants. */
export interface AnswerTimes {
  platform: string;
  channel: string;
  /** `buckets[i]` = answers that took at most ANSWER_SECONDS_BUCKETS[i] seconds. */
  buckets: number[];
  count: number;
  sumSeconds: number;
}

/** Web-channel attempts per platform, region (`any`: none) and outcome, since the first. */
export interface WebOutcomeCount {
  platform: string;
  region: string;
  outcome: WebOutcome;
  count: number;
}

export interface TaskFigures {
  subtasks: SubTaskCount[];
  answerTimes: AnswerTimes[];
  webOutcomes: WebOutcomeCount[];
}

export interface CallbackFigures {
  /** Delivery attempts by outcome: `delivered`, `http_error` (a non-2xx answer) or `network_error`. */
  attempts: { outcome: string; count: number }[];
  /** Deliveries by state (PENDING, SUCCEEDED, FAILED). */
  deliveries: { status: string; count: number }[];
}
