/**
 * Anthropic Claude over the Messages API. Reasoning is extended thinking
 * (`thinking` enabled with a token budget; Claude 4 models return summarized
 * thinking); search is the server-side `web_search` tool. Authentication is
 * `x-api-key` plus the pinned `anthropic-version`.
 */
import type { ApiContext, Job, ApiDriver } from '../types.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import { apiKeyOf, finalAnswer, hasReasoning, hasSearch, modelFor } from '../common/answer.js';
import { classify, refusalError } from '../common/errors.js';
import { accumulate, deadlineSignal, joinUrl, post } from '../common/http.js';
import { MessagesAccumulator } from './stream.js';

const MAX_TOKENS = 8192;
const THINKING_BUDGET = 4096;

export function messagesBody(job: Job, model: string): Record<string, unknown> {
  return {
    model,
    max_tokens: MAX_TOKENS,
    messages: [{ role: 'user', content: job.prompt }],
    stream: true,
    ...(hasReasoning(job.mode)
      ? { thinking: { type: 'enabled', budget_tokens: THINKING_BUDGET } }
      : {}),
    ...(hasSearch(job.mode)
      ? { tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }] }
      : {}),
  };
}

async function ask(job: Job, ctx: ApiContext): Promise<Answer> {
  const platform = 'claude';
  const { settings } = ctx;
  const signal = deadlineSignal(job, settings);
  const res = await post(ctx, {
    platform,
    url: joinUrl(settings.apiBaseUrl, '/messages'),
    headers: {
      'x-api-key': apiKeyOf(platform, settings),
      'anthropic-version': '2023-06-01',
      accept: 'text/event-stream',
    },
    body: messagesBody(job, modelFor(platform, settings, job.mode)),
    signal,
  });
  const acc = new MessagesAccumulator();
  await accumulate(platform, res, signal, acc);
  if (acc.error) throw classify(platform, acc.error);
  if (acc.stopReason === 'refusal') throw refusalError(platform, 'stop_reason refusal');
  acc.raw.reasoningContent = acc.reasoning;
  return finalAnswer(platform, acc.raw);
}

export const claudeApi: ApiDriver = { ask };
