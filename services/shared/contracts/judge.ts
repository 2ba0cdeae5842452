/** `crawler.judge`: one sentiment-judge request (services/tasks/judge.ts) and its outcome. */
import type { Failure } from './status.js';

export interface JudgeRequest {
  platform: string;
  model?: string;
  prompt: string;
  /** The sub task's region: the judge asks through one of its proxy ports. */
  regionCode: string | null;
}

/** The judge platform's answer text, or why there is none. */
export type JudgeAnswer = { text: string } | { failure: Failure };
