/**
 * The sentiment judge (issue 14 item 4). An answer that mentions a keyword
 * group is recorded with `sentimentPending` (ledger.ts); the sub task is final
 * at once and its verdicts come later, from one judge request per answer sent
 * through a crawler node (`crawler.judge`: the judge platform's API driver, a
 * proxy port of the sub task's region, the drivers' failure classes).
 *
 * The queue is the sub task collection itself, so nothing is lost on a crash:
 * every tasks node runs the loop, an atomic take (moving `sentimentNotBefore`
 * past a hold) gives each answer to one of them, and an answer whose taker
 * died is taken again after the hold. A retryable failure backs off and is
 * tried again, up to `maxAttempts`; then, or at a final failure, the judge
 * gives up, says why (`sentimentError`) and sentiment stays null.
 */
import type { Collection } from 'mongodb';
import type { Clock } from '../shared/clock.js';
import type { SentimentVerdict } from '../shared/contracts/brand.js';
import type { Failure } from '../shared/contracts/status.js';
import type { JudgeAnswer, JudgeRequest } from '../shared/contracts/judge.js';
import { judgePrompt, parseVerdicts } from '../shared/brand/judge.js';
import type { SubTaskDoc } from '../shared/subtasks/models.js';

export interface JudgeOptions {
  platform: string;
  model: string | undefined;
  maxAttempts: number;
  pollMs: number;
}

export interface JudgeDeps {
  subtasks: Collection;
  /** Sends the request to a crawler node; rejects when none can take it. */
  ask(request: JudgeRequest): Promise<JudgeAnswer>;
  clock: Clock;
  warn(message: string, err?: unknown): void;
}

/** How long a taken answer is held by its taker (above any platform's deadline). */
export const HOLD_MS = 180_000;
const BACKOFF_MS = 5_000;
/** Requests in flight per tasks node. */
const CONCURRENCY = 4;

type Taken = Pick<
  SubTaskDoc,
  '_id' | 'answerContent' | 'mentions' | 'regionCode' | 'sentimentAttempts'
>;

export class SentimentJudge {
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly d: JudgeDeps,
    private readonly o: JudgeOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = Array.from({ length: CONCURRENCY }, () => this.loop());
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const took = await this.judgeOne().catch((err: unknown) => {
        this.d.warn('the sentiment judge failed to take an answer:', err);
        return false;
      });
      if (!took) await this.idle();
    }
  }

  /** A stop waits at most one poll. */
  private idle(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.o.pollMs));
  }

  /** Takes one waiting answer and judges it; false when none waits. */
  async judgeOne(): Promise<boolean> {
    const now = this.d.clock.now();
    const taken = (await this.d.subtasks.findOneAndUpdate(
      { sentimentPending: true, sentimentNotBefore: { $lte: now } },
      { $set: { sentimentNotBefore: now + HOLD_MS }, $inc: { sentimentAttempts: 1 } },
      {
        returnDocument: 'after',
        projection: { answerContent: 1, mentions: 1, regionCode: 1, sentimentAttempts: 1 },
      },
    )) as Taken | null;
    if (!taken) return false;
    const keywords = (taken.mentions ?? []).filter((m) => m.count > 0).map((m) => m.keyword);
    if (keywords.length === 0) {
      await this.settle(taken, { verdicts: [] });
      return true;
    }
    const answer = await this.d
      .ask({
        platform: this.o.platform,
        ...(this.o.model !== undefined && { model: this.o.model }),
        prompt: judgePrompt(keywords, taken.answerContent ?? ''),
        regionCode: taken.regionCode ?? null,
      })
      .catch((err: unknown): JudgeAnswer => ({
        failure: {
          status: 'failed',
          retryable: true,
          message: `no crawler node took the judge request: ${String((err as Error)?.message ?? err)}`,
        },
      }));
    if ('text' in answer) {
      const verdicts = parseVerdicts(answer.text, keywords);
      await this.settle(
        taken,
        verdicts
          ? { verdicts }
          : {
              failure: {
                status: 'failed',
                retryable: true,
                message: 'the judge did not answer the JSON asked for',
              },
            },
      );
    } else await this.settle(taken, { failure: answer.failure });
    return true;
  }

  private async settle(
    taken: Taken,
    outcome: { verdicts: SentimentVerdict[] } | { failure: Failure },
  ): Promise<void> {
    const held = { _id: taken._id as never, sentimentPending: true };
    if ('verdicts' in outcome) {
      await this.d.subtasks.updateOne(held, {
        $set: { sentiment: outcome.verdicts, sentimentError: null },
        $unset: { sentimentPending: '', sentimentNotBefore: '' },
      });
      return;
    }
    const { failure } = outcome;
    const attempts = taken.sentimentAttempts ?? 1;
    if (failure.retryable && attempts < this.o.maxAttempts) {
      const wait = Math.max(BACKOFF_MS * attempts, (failure.retryAfterSeconds ?? 0) * 1000);
      await this.d.subtasks.updateOne(held, {
        $set: { sentimentNotBefore: this.d.clock.now() + wait, sentimentError: failure.message },
      });
      return;
    }
    await this.d.subtasks.updateOne(held, {
      $set: {
        sentimentError: `the judge gave up after ${attempts} attempt(s): ${failure.message}`,
      },
      $unset: { sentimentPending: '', sentimentNotBefore: '' },
    });
  }
}
