/**
 * The sandbox's sentiment judge: a deterministic answer to a judge request
 * (services/shared/brand/judge.ts), so tests can check the verdicts. Each
 * brand's sentiment follows from a hash of the brand and the judged answer.
 */
import type { SentimentVerdict } from '../services/shared/contracts/brand.js';
import { judgeRequestOf } from '../services/shared/brand/judge.js';
import { hashString } from './answers.js';

const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;

export function sandboxVerdicts(keywords: readonly string[], answer: string): SentimentVerdict[] {
  return keywords.map((keyword) => {
    const sentiment = SENTIMENTS[hashString(`${keyword}\n${answer}`) % SENTIMENTS.length]!;
    return { keyword, sentiment, reason: `the sandbox judge finds ${keyword} ${sentiment}` };
  });
}

/** The judge's reply to `prompt` (a JSON array in a sentence), or null when it is no judge request. */
export function sandboxJudgeReply(prompt: string): string | null {
  const request = judgeRequestOf(prompt);
  if (!request) return null;
  return `Verdicts:\n${JSON.stringify(sandboxVerdicts(request.keywords, request.answer))}`;
}
