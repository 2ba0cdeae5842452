/**
 * The sentiment judge's request and answer, pure (issue 14 item 4): one
 * prompt per answered sub task names the groups the answer mentions and asks
 * for a JSON array of verdicts; the judge's answer is read back strictly (a
 * verdict for a group not asked about is dropped, a missing one is a failure).
 * The first line marks the request, so the sandbox stand-in can answer it
 * deterministically (sandbox/answers.ts).
 */
import { z } from 'zod';
import type { SentimentVerdict } from '../contracts/brand.js';

export const JUDGE_MARKER = '[brand-sentiment-judge v1]';
const ANSWER_OPEN = '<<<ANSWER';
const ANSWER_CLOSE = 'ANSWER>>>';
/** The judge sees at most this much of the answer (long answers keep their start). */
const MAX_ANSWER_CHARS = 12_000;

export function judgePrompt(keywords: readonly string[], answer: string): string {
  return [
    JUDGE_MARKER,
    'You judge how an AI assistant answer speaks of brands. For each brand below, classify the',
    "answer's tone toward it as positive, neutral or negative, with a one-line reason.",
    'Reply with only a JSON array, one object per brand, in this shape:',
    '[{"keyword": "<brand>", "sentiment": "positive" | "neutral" | "negative", "reason": "<one line>"}]',
    `Brands: ${JSON.stringify(keywords)}`,
    ANSWER_OPEN,
    answer.slice(0, MAX_ANSWER_CHARS),
    ANSWER_CLOSE,
  ].join('\n');
}

export function isJudgePrompt(prompt: string): boolean {
  return prompt.startsWith(JUDGE_MARKER);
}

/** What a judge prompt asks about (the sandbox's judge reads it back). */
export function judgeRequestOf(prompt: string): { keywords: string[]; answer: string } | null {
  if (!isJudgePrompt(prompt)) return null;
  const line = prompt.split('\n').find((l) => l.startsWith('Brands: '));
  const open = prompt.indexOf(`\n${ANSWER_OPEN}\n`);
  const close = prompt.lastIndexOf(`\n${ANSWER_CLOSE}`);
  if (!line || open < 0 || close < open) return null;
  const keywords = z.array(z.string()).safeParse(safeJson(line.slice('Brands: '.length)));
  if (!keywords.success) return null;
  return {
    keywords: keywords.data,
    answer: prompt.slice(open + ANSWER_OPEN.length + 2, close),
  };
}

const verdictsSchema = z.array(
  z.object({
    keyword: z.string(),
    sentiment: z.enum(['positive', 'neutral', 'negative']),
    reason: z.string(),
  }),
);

/**
 * The verdicts for `keywords`, in their order, from the judge's answer (the
 * JSON array may sit inside prose or a code fence). Null when the answer has
 * no such array or lacks a verdict for one of them.
 */
export function parseVerdicts(
  text: string,
  keywords: readonly string[],
): SentimentVerdict[] | null {
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start < 0 || end < start) return null;
  const parsed = verdictsSchema.safeParse(safeJson(text.slice(start, end + 1)));
  if (!parsed.success) return null;
  const byKeyword = new Map(parsed.data.map((v) => [v.keyword.trim().toLowerCase(), v]));
  const verdicts: SentimentVerdict[] = [];
  for (const keyword of keywords) {
    const v = byKeyword.get(keyword.toLowerCase());
    if (!v) return null;
    verdicts.push({ keyword, sentiment: v.sentiment, reason: oneLine(v.reason) });
  }
  return verdicts;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 300);

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
