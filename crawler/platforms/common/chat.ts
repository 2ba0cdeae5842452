/**
 * One driver for every vendor that speaks OpenAI-style Chat Completions
 * (OpenAI, Perplexity, DeepSeek, Kimi, Zhipu, Ark, Hunyuan, Qianfan, xAI).
 * The vendors differ only in data: the path, the request switches per mode,
 * the finish reasons that mean a refusal, and whether built-in tool calls are
 * echoed back (Kimi's `$web_search`, whose calls carry the sources found).
 * Streaming, `[DONE]`, keep-alives, errors and extraction are shared.
 */
import type { Mode } from '../../../services/shared/platforms.js';
import type { ApiContext, ApiDriver, Job, PlatformSettings } from '../types.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import { apiKeyOf, finalAnswer, modelFor } from './answer.js';
import { classify } from './errors.js';
import {
  deadlineSignal,
  eventJson,
  isEventStream,
  joinUrl,
  post,
  readJson,
  sseEvents,
  truncated,
} from './http.js';
import {
  accumulateCompletion,
  OpenAIStreamAccumulator,
  searchResultOf,
  toolCallSources,
} from './openai-stream.js';
import type { RawSearchResult } from './raw-answer.js';
import { isDone } from './sse.js';

export interface ChatFlavor {
  /** Canonical platform name, used in error messages. */
  platform: string;
  /** Path under the base URL, e.g. `/v1/chat/completions`. */
  path: string | ((mode: Mode) => string);
  /** The vendor's switches for a mode, merged over `{model, messages, stream}`. */
  switches(mode: Mode, settings: PlatformSettings): Record<string, unknown>;
  /** Finish reasons that mean the platform refused (content filters). */
  refusalReasons?: readonly string[];
  /** Built-in tools the client must echo back before the answer comes (Kimi). */
  echoToolCalls?: boolean;
}

/** Tool round trips allowed before the answer; a search rarely takes more than two. */
const MAX_ROUNDS = 5;

async function readChat(
  platform: string,
  res: Response,
  signal: AbortSignal,
): Promise<OpenAIStreamAccumulator> {
  if (!isEventStream(res)) return accumulateCompletion(await readJson(platform, res, signal));
  const acc = new OpenAIStreamAccumulator();
  let done = false;
  for await (const event of sseEvents(platform, res, signal)) {
    if (isDone(event)) {
      done = true;
      break;
    }
    acc.push(eventJson(platform, event));
  }
  // Not every vendor sends `[DONE]` (Perplexity); a finish reason also ends the answer.
  if (!done && acc.finishReason === null && acc.error === undefined) throw truncated(platform);
  return acc;
}

export function chatDriver(flavor: ChatFlavor): ApiDriver {
  const { platform } = flavor;
  return {
    async ask(job: Job, ctx: ApiContext): Promise<Answer> {
      const { settings } = ctx;
      const signal = deadlineSignal(job, settings);
      const path = typeof flavor.path === 'function' ? flavor.path(job.mode) : flavor.path;
      const messages: Record<string, unknown>[] = [{ role: 'user', content: job.prompt }];
      const earlierReasoning: string[] = [];
      const toolSources: unknown[] = [];
      for (let round = 1; ; round++) {
        const res = await post(ctx, {
          platform,
          url: joinUrl(settings.apiBaseUrl, path),
          headers: {
            authorization: `Bearer ${apiKeyOf(platform, settings)}`,
            accept: 'text/event-stream',
          },
          body: {
            model: modelFor(platform, settings, job.mode),
            messages,
            stream: true,
            ...flavor.switches(job.mode, settings),
          },
          signal,
        });
        const acc = await readChat(platform, res, signal);
        if (acc.error) {
          throw classify(platform, {
            status: 0,
            code: acc.error.code ?? acc.error.type,
            message: acc.error.message,
          });
        }
        if (flavor.refusalReasons?.includes(acc.finishReason ?? '')) {
          acc.raw.refusal ||= `finish_reason ${acc.finishReason}`;
        }
        const calls = acc.toolCalls.filter((c) => c.id && c.name);
        if (flavor.echoToolCalls && acc.finishReason === 'tool_calls' && calls.length > 0) {
          if (round >= MAX_ROUNDS) throw truncated(platform);
          if (acc.raw.reasoningContent) earlierReasoning.push(acc.raw.reasoningContent);
          toolSources.push(...toolCallSources(calls));
          messages.push({
            role: 'assistant',
            content: acc.raw.content,
            // Thinking models need their reasoning back on the tool-call message.
            ...(acc.raw.reasoningContent ? { reasoning_content: acc.raw.reasoningContent } : {}),
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: c.type || 'builtin_function',
              function: { name: c.name, arguments: c.arguments },
            })),
          });
          for (const c of calls) {
            messages.push({ role: 'tool', tool_call_id: c.id, name: c.name, content: c.arguments });
          }
          continue;
        }
        acc.raw.reasoningContent = [...earlierReasoning, acc.raw.reasoningContent]
          .filter(Boolean)
          .join('\n\n');
        if (acc.raw.searchResults.length === 0) {
          acc.raw.searchResults = toolSources
            .map((r, i) => searchResultOf(r, i))
            .filter((r): r is RawSearchResult => r !== undefined);
        }
        return finalAnswer(platform, acc.raw);
      }
    },
  };
}
