/**
 * Stand-in for the OpenAI-style Chat Completions vendors, one flavour per
 * vendor: its path, its request switches (checked: a wrong switch gives the
 * wrong mode, an unknown model a 404), where it puts sources, follow-ups and
 * images, its citation marker style, its refusal and its error bodies. The
 * stream is `data:` chunks ending with `data: [DONE]`.
 */
import type { ServerResponse } from 'node:http';
import { CHAT_FLAVOURS, obj, type ChatFlavour } from './openai-chat-flavours.js';
import {
  answerText,
  Directives,
  REASONING,
  segments,
  servedModel,
  SOURCES,
  type FailKind,
} from './scenario.js';
import {
  bearer,
  deltas,
  frame,
  sendError,
  sendJson,
  sendSse,
  stall,
  type Recorded,
  type Route,
} from './server.js';

type Body = Record<string, unknown>;

/** What every chunk of one completion repeats: its id and the model that answered. */
interface Head {
  id: string;
  model: string;
}

function chunk(head: Head, delta: Body, finish: string | null = null, extra: Body = {}): Body {
  return {
    id: head.id,
    object: 'chat.completion.chunk',
    created: 1_750_000_000,
    model: head.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

async function answer(
  f: ChatFlavour,
  req: Recorded,
  res: ServerResponse,
  fail: FailKind | undefined,
) {
  const body = req.body as Body;
  const prompt = String(obj((body.messages as Body[])[0]).content);
  const mode = f.modeOf(body);
  const id: Head = { id: `chatcmpl-${req.path.length}`, model: servedModel(body.model) };
  if (fail === 'refusal' && 'status' in f.refusal)
    return sendJson(res, f.refusal.status, f.refusal.body);
  const frames: string[] = [frame(chunk(id, { role: 'assistant', content: '' }))];
  if (f.toolRoundTrip && mode.search && !(body.messages as Body[]).some((m) => m.role === 'tool')) {
    // The call's arguments are also the search's result the client echoes back.
    const args = JSON.stringify({
      search_result: { search_id: 'sr-1' },
      search_results: SOURCES.map((s) => ({ title: s.title, url: s.url, content: '…' })),
      usage: { total_tokens: 8000 },
    });
    frames.push(
      frame(
        chunk(id, {
          tool_calls: [
            {
              index: 0,
              id: 'call_ws_1',
              type: 'builtin_function',
              function: { name: '$web_search', arguments: '' },
            },
          ],
        }),
      ),
    );
    for (const piece of deltas(args, 20))
      frames.push(frame(chunk(id, { tool_calls: [{ index: 0, function: { arguments: piece } }] })));
    frames.push(frame(chunk(id, {}, 'tool_calls')), frame('[DONE]'));
    return sendSse(res, frames);
  }
  const echoed = (body.messages as Body[]).find((m) => m.role === 'tool');
  if (
    echoed &&
    (echoed.tool_call_id !== 'call_ws_1' ||
      typeof echoed.content !== 'string' ||
      !echoed.content.includes('sr-1'))
  ) {
    return sendJson(res, 400, {
      error: { message: 'tool message does not echo the call', type: 'invalid_request_error' },
    });
  }
  const extras = mode.search && f.extras ? f.extras(body) : {};
  const text =
    fail === 'empty'
      ? ''
      : answerText(segments(prompt, mode.search && !!f.extras), f.extras ? f.marker : undefined);
  if (Object.keys(extras).length > 0) frames.push(frame(chunk(id, {}, null, extras)));
  if (mode.reasoning && fail !== 'empty') {
    if (f.thinkInline)
      frames.push(
        ...deltas(`<think>${REASONING}</think>\n\n`).map((d) =>
          frame(chunk(id, { content: d }, null, extras)),
        ),
      );
    else
      frames.push(
        ...deltas(REASONING).map((d) => frame(chunk(id, { reasoning_content: d, content: null }))),
      );
  }
  if (fail === 'midstream') {
    frames.push(
      frame(chunk(id, { content: text.slice(0, 5) })),
      frame({
        error: { message: 'stream interrupted', type: 'server_error', code: 'server_error' },
      }),
    );
    return sendSse(res, frames);
  }
  if (fail === 'refusal' && 'field' in f.refusal) {
    frames.push(
      frame(chunk(id, { refusal: "I'm sorry, I can't help with that." })),
      frame(chunk(id, {}, 'stop')),
      frame('[DONE]'),
    );
    return sendSse(res, frames);
  }
  for (const d of fail === 'refusal' ? [] : deltas(text))
    frames.push(frame(chunk(id, { content: d }, null, f.thinkInline ? extras : {})));
  const finish = fail === 'refusal' && 'finish' in f.refusal ? f.refusal.finish : 'stop';
  frames.push(
    frame(
      chunk(id, {}, finish, {
        ...extras,
        usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 },
      }),
    ),
  );
  frames.push(frame('[DONE]'));
  return sendSse(res, frames);
}

/** Starts the stand-in for one vendor flavour, accepting only `apiKey`. */
export function chatRoute(name: string, apiKey: string): Route {
  const f = CHAT_FLAVOURS[name]!;
  const directives = new Directives();
  return {
    matches: (path) => path === f.path,
    handle: async (req, res) => {
      if (req.method !== 'POST' || req.path !== f.path)
        return sendJson(res, 404, {
          error: { message: `no route ${req.path}`, type: 'not_found' },
        });
      if (bearer(req) !== apiKey) return sendError(res, f.errors.auth!);
      const body = req.body as Body | undefined;
      if (
        !body ||
        !Array.isArray(body.messages) ||
        typeof body.model !== 'string' ||
        body.stream !== true
      ) {
        return sendJson(res, 400, {
          error: {
            message: 'bad request: model, messages and stream:true expected',
            type: 'invalid_request_error',
          },
        });
      }
      if ('search_parameters' in body)
        return sendJson(res, 410, { code: 'gone', error: 'Live search is deprecated' });
      const fail = directives.failure(String(obj(body.messages[0]).content));
      if (fail === 'slow') return stall(res);
      if (fail && fail in f.errors) return sendError(res, f.errors[fail]!);
      await answer(f, req, res, fail);
    },
  };
}
