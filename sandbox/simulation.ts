/**
 * The sandbox's simulated behaviour, apart from HTTP: which requests fail and
 * how, how long an answer takes, and what is sent. Deterministic: failures
 * come from prompt directives (`#fail:500x2` counts attempts per prompt and
 * mode) or from a PRNG seeded by `seed`, so the same requests in the same
 * order give the same outcomes.
 */
import type { Mode } from '../services/shared/platforms.js';
import type { Answer } from '../services/shared/contracts/answer.js';
import { hashString, mulberry32, REFUSAL_TEXT, sandboxAnswer } from './answers.js';
import { parseDirectives, type FailKind } from './directives.js';
import { sandboxJudgeReply } from './judge.js';
import type { WireOptions } from './stream.js';

export interface SimulationKnobs {
  /** Total answer time in ms (default 0). */
  latencyMs?: number;
  /** Share of chat requests (0..1) that fail with 500, 503 or 429 (default 0). */
  failureRate?: number;
  /** Seed of the PRNG behind failureRate (default 1). */
  seed?: number;
}

/** What the sandbox sends for a request that gets an answer. */
export interface Reply {
  answer: Answer;
  finishReason: NonNullable<WireOptions['finishReason']>;
}

const NO_ANSWER: Answer = {
  answerContent: '',
  referenceList: [],
  citationList: [],
  reasoningProcess: null,
  recommendedQuestions: [],
  mediaContent: [],
};

/**
 * The reply for a prompt; `empty` and `refuse` replace the answer, a refusal
 * is filtered; a sentiment judge's request is answered as the judge.
 */
export function replyFor(
  prompt: string,
  mode: Mode,
  failure: FailKind | undefined,
  withoutLead = false,
): Reply {
  if (failure === 'empty') return { answer: { ...NO_ANSWER }, finishReason: 'stop' };
  if (failure === 'refuse') {
    return {
      answer: { ...NO_ANSWER, answerContent: REFUSAL_TEXT },
      finishReason: 'content_filter',
    };
  }
  // A sentiment judge's request gets the judge's deterministic verdicts.
  const verdicts = sandboxJudgeReply(prompt);
  if (verdicts !== null)
    return { answer: { ...NO_ANSWER, answerContent: verdicts }, finishReason: 'stop' };
  return { answer: sandboxAnswer(prompt, mode, withoutLead), finishReason: 'stop' };
}

export class Simulation {
  private readonly random: () => number;
  private readonly attempts = new Map<string, number>();
  private readonly asks = new Map<string, number>();

  constructor(private readonly knobs: SimulationKnobs = {}) {
    this.random = mulberry32(knobs.seed ?? 1);
  }

  /** The failure to simulate for this request, if any (`rate` overrides failureRate). */
  failureFor(prompt: string, mode: Mode, rate?: number): FailKind | undefined {
    const { fail } = parseDirectives(prompt);
    if (fail) {
      if (fail.times === undefined) return fail.kind;
      const key = `${mode}\u0000${prompt}`;
      const n = (this.attempts.get(key) ?? 0) + 1;
      this.attempts.set(key, n);
      return n <= fail.times ? fail.kind : undefined;
    }
    const share = rate ?? this.knobs.failureRate ?? 0;
    if (share <= 0) return undefined;
    // Two draws per request whatever the outcome, so the sequence depends only on the order.
    const hit = this.random() < share;
    const kind = (['500', '503', '429'] as const)[Math.floor(this.random() * 3)]!;
    return hit ? kind : undefined;
  }

  /** The answer time: the prompt's `#latency:`, else `latencyMs` given per request, else the knob. */
  latencyFor(prompt: string, latencyMs?: number): number {
    return Math.max(0, parseDirectives(prompt).latencyMs ?? latencyMs ?? this.knobs.latencyMs ?? 0);
  }

  /**
   * `#vary:<percent>`: whether this ask leaves the lead brand out. Each ask of
   * a prompt + mode is numbered, and the number seeds the draw, so the n-th
   * ask answers the same in every run of a test.
   */
  withoutLead(prompt: string, mode: Mode): boolean {
    const { varyPercent } = parseDirectives(prompt);
    if (varyPercent === undefined) return false;
    const key = `${mode}\u0000${prompt}`;
    const n = (this.asks.get(key) ?? 0) + 1;
    this.asks.set(key, n);
    return mulberry32(hashString(`${key}\u0000${n}`))() * 100 >= varyPercent;
  }

  /** Forgets the `x<N>` attempt and `#vary:` ask counters. */
  reset(): void {
    this.attempts.clear();
    this.asks.clear();
  }
}
