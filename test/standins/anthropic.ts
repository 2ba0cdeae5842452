/**
 * Stand-in for Anthropic Messages: `x-api-key` + `anthropic-version` checked,
 * named events (`event:` equals `data.type`), `ping` between blocks, thinking
 * blocks first, then with search a `server_tool_use`, the
 * `web_search_tool_result` with the sources, and the answer as many text
 * blocks, each cited sentence its own block with `citations_delta`s; ends with
 * `message_stop`. Overload is 529; a mid-stream failure is `event: error`.
 */
import type { ServerResponse } from 'node:http';
import { ERRORS } from './errors.js';
import { Directives, REASONING, segments, servedModel, SOURCES, isErrorReply } from './scenario.js';
import { deltas, frame, sendError, sendJson, sendSse, stall, type Route } from './server.js';

type Body = Record<string, unknown>;

async function answer(body: Body, res: ServerResponse, fail: string | undefined) {
  const prompt = String((body.messages as Body[])[0]!.content);
  const reasoning = (body.thinking as Body | undefined)?.type === 'enabled';
  const search =
    Array.isArray(body.tools) &&
    body.tools.some(
      (t: Body) => String(t.type).startsWith('web_search_') && t.name === 'web_search',
    );
  const frames: string[] = [];
  const emit = (data: Body) => frames.push(frame(data, String(data.type)));
  emit({
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [],
      model: servedModel(body.model),
      stop_reason: null,
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  });
  let index = 0;
  if (reasoning) {
    emit({
      type: 'content_block_start',
      index,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    for (const d of deltas(REASONING))
      emit({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: d } });
    emit({
      type: 'content_block_delta',
      index,
      delta: { type: 'signature_delta', signature: 'c2ln' },
    });
    emit({ type: 'content_block_stop', index: index++ });
  }
  emit({ type: 'ping' });
  if (search) {
    emit({
      type: 'content_block_start',
      index,
      content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
    });
    emit({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify({ query: prompt }) },
    });
    emit({ type: 'content_block_stop', index: index++ });
    const content = SOURCES.map((s) => ({
      type: 'web_search_result',
      url: s.url,
      title: s.title,
      page_age: null,
      encrypted_content: 'ZW5j',
    }));
    emit({
      type: 'content_block_start',
      index,
      content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content },
    });
    emit({ type: 'content_block_stop', index: index++ });
  }
  if (fail === 'midstream') {
    emit({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    return sendSse(res, frames);
  }
  for (const seg of fail === 'empty' || fail === 'refusal' ? [] : segments(prompt, search)) {
    emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const n of seg.cite) {
      const s = SOURCES[n - 1]!;
      emit({
        type: 'content_block_delta',
        index,
        delta: {
          type: 'citations_delta',
          citation: {
            type: 'web_search_result_location',
            url: s.url,
            title: s.title,
            cited_text: '…',
            encrypted_index: 'aWR4',
          },
        },
      });
    }
    for (const d of deltas(seg.text))
      emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: d } });
    emit({ type: 'content_block_stop', index: index++ });
  }
  emit({
    type: 'message_delta',
    delta: { stop_reason: fail === 'refusal' ? 'refusal' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 9 },
  });
  emit({ type: 'message_stop' });
  return sendSse(res, frames);
}

export function anthropicRoute(apiKey: string): Route {
  const directives = new Directives();
  const errors = ERRORS.anthropic!;
  return {
    matches: (path) => path === '/v1/messages',
    handle: async (req, res) => {
      if (req.method !== 'POST' || req.path !== '/v1/messages')
        return sendJson(res, 404, {
          type: 'error',
          error: { type: 'not_found_error', message: 'Not found' },
        });
      if (req.headers['x-api-key'] !== apiKey) return sendError(res, errors.auth);
      const body = req.body as Body | undefined;
      if (
        req.headers['anthropic-version'] !== '2023-06-01' ||
        !body ||
        typeof body.max_tokens !== 'number' ||
        !Array.isArray(body.messages) ||
        body.stream !== true
      ) {
        return sendJson(res, 400, {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: 'anthropic-version, max_tokens, messages and stream expected',
          },
        });
      }
      const thinking = body.thinking as Body | undefined;
      if (
        thinking?.type === 'enabled' &&
        !(
          Number(thinking.budget_tokens) >= 1024 && Number(thinking.budget_tokens) < body.max_tokens
        )
      ) {
        return sendJson(res, 400, {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: 'thinking.budget_tokens must be ≥ 1024 and less than max_tokens',
          },
        });
      }
      const fail = directives.failure(String((body.messages[0] as Body).content));
      if (fail === 'slow') return stall(res);
      if (isErrorReply(fail)) return sendError(res, errors[fail]);
      await answer(body, res, fail);
    },
  };
}
