/**
 * Alibaba Qwen over DashScope's native protocol: only it returns search
 * sources (the OpenAI-compatible mode does not). `enable_thinking` switches
 * reasoning (`reasoning_content`); `enable_search` with `enable_source`,
 * `enable_citation` (`[n]` markers) and `prepend_search_result` switches
 * search; streaming needs `X-DashScope-SSE: enable`.
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
import { DashScopeAccumulator } from './stream.js';

export function generationBody(job: Job, model: string): Record<string, unknown> {
  return {
    model,
    input: { messages: [{ role: 'user', content: job.prompt }] },
    parameters: {
      result_format: 'message',
      incremental_output: true,
      enable_thinking: hasReasoning(job.mode),
      enable_search: hasSearch(job.mode),
      ...(hasSearch(job.mode)
        ? {
            search_options: {
              forced_search: true,
              enable_source: true,
              enable_citation: true,
              citation_format: '[<number>]',
              prepend_search_result: true,
            },
          }
        : {}),
    },
  };
}

async function ask(job: Job, ctx: ApiContext): Promise<Answer> {
  const platform = 'qwen';
  const { settings } = ctx;
  const signal = deadlineSignal(job, settings);
  const res = await post(ctx, {
    platform,
    url: joinUrl(settings.apiBaseUrl, '/services/aigc/text-generation/generation'),
    headers: {
      authorization: `Bearer ${apiKeyOf(platform, settings)}`,
      'x-dashscope-sse': 'enable',
      accept: 'text/event-stream',
    },
    body: generationBody(job, modelFor(platform, settings, job.mode)),
    signal,
  });
  const acc = new DashScopeAccumulator();
  if (isEventStream(res)) {
    for await (const event of sseEvents(platform, res, signal)) {
      acc.push(event.event, eventJson(platform, event));
      if (acc.error || acc.finishReason) break;
    }
  } else {
    acc.push('result', await readJson(platform, res, signal));
  }
  if (acc.error) throw classify(platform, acc.error);
  if (acc.finishReason === undefined) throw truncated(platform);
  if (acc.finishReason !== 'stop' && acc.finishReason !== 'length') {
    throw refusalError(platform, `finish_reason ${acc.finishReason}`);
  }
  return finalAnswer(platform, acc.raw);
}

export const qwenApi: ApiDriver = { ask };
