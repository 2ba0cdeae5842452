/**
 * The sandbox's API driver: one streaming OpenAI-compatible Chat Completions
 * call through `ctx.fetch` (so through the lease's proxy), parsed with our own
 * SSE parser and accumulator. Also accepts a non-streaming JSON reply.
 */
import type { Mode } from '../../../services/shared/platforms.js';
import {
  PlatformError,
  type Answer,
  type ApiContext,
  type ApiDriver,
  type Job,
  type PlatformSettings,
} from '../types.js';
import { modeFlags } from './answers.js';
import { checkAnswer, errorForStatus, timeoutError } from './errors.js';
import { accumulateCompletion, OpenAIStreamAccumulator } from '../common/openai-stream.js';
import { buildAnswer } from '../common/raw-answer.js';
import { isDone, SseParser } from '../common/sse.js';
import { deadlineSignal, describeCause } from '../common/http.js';

/** The model asked for in `mode`: the operator's choice, else `sandbox-<mode>`. */
export function modelFor(mode: Mode, settings: PlatformSettings): string {
  return settings.models?.[mode] ?? `sandbox-${mode.replace('_', '-')}`;
}

/** The request body for a job. */
export function requestBody(job: Job, settings: PlatformSettings): Record<string, unknown> {
  const { reasoning, search } = modeFlags(job.mode);
  return {
    model: modelFor(job.mode, settings),
    messages: [{ role: 'user', content: job.prompt }],
    stream: true,
    reasoning,
    web_search: search,
  };
}

/** A thrown transport error as a PlatformError (abort → timeout, anything else → network). */
export function transportError(err: unknown, signal: AbortSignal): PlatformError {
  if (err instanceof PlatformError) return err;
  if (signal.aborted) return timeoutError('no complete answer before the deadline');
  return new PlatformError(
    `network error talking to the platform: ${describeCause(err)}`,
    'failed',
    true,
  );
}

async function readStream(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): Promise<OpenAIStreamAccumulator> {
  const acc = new OpenAIStreamAccumulator();
  const parser = new SseParser();
  const reader = body.getReader();
  let sawDone = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const events = done ? parser.end() : parser.push(value);
      for (const event of events) {
        if (isDone(event)) {
          sawDone = true;
          break;
        }
        let chunk: unknown;
        try {
          chunk = JSON.parse(event.data);
        } catch {
          throw new PlatformError(
            `could not parse a stream chunk: ${event.data.slice(0, 120)}`,
            'failed',
            false,
          );
        }
        acc.push(chunk);
      }
      if (done || sawDone) break;
    }
  } catch (err) {
    throw transportError(err, signal);
  } finally {
    // Stop reading whatever is left (after [DONE], or after a failure).
    reader.cancel().catch(() => undefined);
  }
  if (!sawDone && acc.finishReason === null && acc.error === undefined) {
    throw new PlatformError(
      'the answer stream ended before the answer was complete',
      'failed',
      true,
    );
  }
  return acc;
}

export async function askSandboxApi(job: Job, ctx: ApiContext): Promise<Answer> {
  const { settings } = ctx;
  const signal = deadlineSignal(job, settings);
  if (signal.aborted) throw timeoutError('aborted before the request was sent');
  const url = `${settings.apiBaseUrl.replace(/\/+$/, '')}/v1/chat/completions`;
  let res: Response;
  try {
    res = await ctx.fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${settings.apiKey ?? 'sandbox'}`,
        'content-type': 'application/json',
        accept: 'text/event-stream, application/json',
      },
      body: JSON.stringify(requestBody(job, settings)),
      signal,
    });
  } catch (err) {
    throw transportError(err, signal);
  }

  if (!res.ok) {
    let text = '';
    try {
      text = await res.text();
    } catch (err) {
      if (signal.aborted) throw transportError(err, signal);
    }
    throw errorForStatus(res.status, res.headers.get('retry-after'), text);
  }

  let acc: OpenAIStreamAccumulator;
  if ((res.headers.get('content-type') ?? '').includes('application/json')) {
    let body: unknown;
    try {
      body = JSON.parse(await res.text());
    } catch (err) {
      if (signal.aborted) throw transportError(err, signal);
      throw new PlatformError('could not parse the platform response', 'failed', false);
    }
    acc = accumulateCompletion(body);
  } else if (res.body) {
    acc = await readStream(res.body as ReadableStream<Uint8Array>, signal);
  } else {
    throw new PlatformError('the platform returned no answer (empty body)', 'failed', false);
  }

  if (acc.error) {
    throw new PlatformError(`the platform reported an error: ${acc.error.message}`, 'failed', true);
  }
  if (acc.raw.refusal.trim() !== '') {
    throw new PlatformError(`the platform refused to answer: ${acc.raw.refusal}`, 'failed', false);
  }
  return checkAnswer(buildAnswer(acc.raw));
}

export const sandboxApi: ApiDriver = { ask: askSandboxApi };
