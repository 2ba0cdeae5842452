/**
 * A request to a Responses-API endpoint (OpenAI, xAI, Ark), streamed and
 * accumulated. The vendors differ in the body only (tools, reasoning,
 * thinking, include), which the platform's driver builds.
 */
import type { ApiContext, Job } from '../types.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import { apiKeyOf, finalAnswer, modelFor } from './answer.js';
import { classify, refusalError } from './errors.js';
import { accumulate, deadlineSignal, joinUrl, post } from './http.js';
import { ResponsesAccumulator } from './responses.js';

export interface ResponsesRequest {
  platform: string;
  /** Path under the base URL, e.g. `/v1/responses`. */
  path: string;
  /** Body fields beyond `{model, input, stream}`. */
  body: Record<string, unknown>;
}

export async function askResponses(
  r: ResponsesRequest,
  job: Job,
  ctx: ApiContext,
): Promise<Answer> {
  const { platform } = r;
  const { settings } = ctx;
  const signal = deadlineSignal(job, settings);
  const res = await post(ctx, {
    platform,
    url: joinUrl(settings.apiBaseUrl, r.path),
    headers: {
      authorization: `Bearer ${apiKeyOf(platform, settings)}`,
      accept: 'text/event-stream',
    },
    body: {
      model: modelFor(platform, settings, job.mode),
      input: job.prompt,
      stream: true,
      ...r.body,
    },
    signal,
  });
  const acc = new ResponsesAccumulator();
  await accumulate(platform, res, signal, acc);
  if (acc.error) throw classify(platform, acc.error);
  if (acc.incompleteReason === 'content_filter') throw refusalError(platform, 'content_filter');
  return finalAnswer(platform, acc.raw);
}
