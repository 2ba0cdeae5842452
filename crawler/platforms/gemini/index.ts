/**
 * Google Gemini over generateContent (`:streamGenerateContent?alt=sse`).
 * Standard turns thinking off (`thinkingBudget: 0`); reasoning asks for
 * thought summaries (`includeThoughts`); search is the `google_search` tool
 * (grounding). A bad key is a 400 `API_KEY_INVALID`, classified as `error`.
 */
import type { ApiContext, Job, ApiDriver } from '../types.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import { apiKeyOf, finalAnswer, hasReasoning, hasSearch, modelFor } from '../common/answer.js';
import { classify, refusalError } from '../common/errors.js';
import {
  deadlineSignal,
  eventJson,
  isEventStream,
  joinUrl,
  post,
  readJson,
  sseEvents,
  truncated,
} from '../common/http.js';
import { GeminiAccumulator } from './stream.js';

export function generateBody(job: Job): Record<string, unknown> {
  return {
    contents: [{ role: 'user', parts: [{ text: job.prompt }] }],
    ...(hasSearch(job.mode) ? { tools: [{ google_search: {} }] } : {}),
    generationConfig: {
      thinkingConfig: hasReasoning(job.mode)
        ? { thinkingBudget: -1, includeThoughts: true }
        : { thinkingBudget: 0 },
    },
  };
}

async function ask(job: Job, ctx: ApiContext): Promise<Answer> {
  const platform = 'gemini';
  const { settings } = ctx;
  const signal = deadlineSignal(job, settings);
  const model = encodeURIComponent(modelFor(platform, settings, job.mode));
  const res = await post(ctx, {
    platform,
    url: joinUrl(settings.apiBaseUrl, `/models/${model}:streamGenerateContent?alt=sse`),
    headers: { 'x-goog-api-key': apiKeyOf(platform, settings), accept: 'text/event-stream' },
    body: generateBody(job),
    signal,
  });
  const acc = new GeminiAccumulator();
  if (isEventStream(res)) {
    for await (const event of sseEvents(platform, res, signal))
      acc.push(eventJson(platform, event));
  } else {
    // Without alt=sse (a gateway that ignores it) the body is one response or an array of them.
    const body = await readJson(platform, res, signal);
    for (const chunk of Array.isArray(body) ? body : [body]) acc.push(chunk);
  }
  if (acc.error) throw classify(platform, acc.error);
  const blocked = acc.blocked;
  if (blocked) throw refusalError(platform, blocked);
  // No sentinel: an answer without a finish reason was cut off.
  if (acc.finishReason === undefined) throw truncated(platform);
  return finalAnswer(platform, acc.finish());
}

export const geminiApi: ApiDriver = { ask };
