/**
 * Stand-in for the OpenAI-style Chat Completions vendors, one flavour per
 * vendor: its path, its request switches (checked: a wrong switch gives the
 * wrong mode, an unknown model a 404), where it puts sources, follow-ups and
 * images, its citation marker style, its refusal and its error bodies. The
 * stream is `data:` chunks ending with `data: [DONE]`.
 */
import type { ServerResponse } from 'node:http';
import { ERRORS, type ErrorReply } from './errors.js';
import {
  answerText,
  Directives,
  IMAGES,
  REASONING,
  RELATED,
  segments,
  SOURCES,
  type FailKind,
} from './scenario.js';
import {
  bearer,
  deltas,
  frame,
  sendJson,
  sendSse,
  stall,
  type Recorded,
  type Route,
} from './server.js';

type Body = Record<string, unknown>;
export interface Mode {
  reasoning: boolean;
  search: boolean;
}

export interface ChatFlavour {
  path: string;
  errors: Record<string, ErrorReply>;
  /** The mode the vendor would run for this request. */
  modeOf(body: Body): Mode;
  marker?: (n: number) => string;
  /** Top-level fields carrying sources and extras for a search answer. */
  extras?(body: Body): Body;
  /** Reasoning inline as `<think>` (Perplexity) instead of `reasoning_content`. */
  thinkInline?: boolean;
  /** The built-in `$web_search` round trip (Kimi). */
  toolRoundTrip?: boolean;
  refusal: { finish: string } | { field: true } | { status: number; body: unknown };
}

const tools = (b: Body) => (Array.isArray(b.tools) ? (b.tools as Body[]) : []);
const thinking = (b: Body) => (b.thinking as { type?: string } | undefined)?.type === 'enabled';
const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Body) : {});

const sources = (fields: (s: (typeof SOURCES)[number], i: number) => Body) =>
  SOURCES.map((s, i) => fields(s, i));

export const CHAT_FLAVOURS: Record<string, ChatFlavour> = {
  chatgpt: {
    path: '/v1/chat/completions',
    errors: ERRORS.openai!,
    modeOf: (b) => ({ reasoning: /^o\d/.test(String(b.model)), search: false }),
    refusal: { field: true },
  },
  perplexity: {
    path: '/chat/completions',
    errors: ERRORS.perplexity!,
    modeOf: (b) => ({
      reasoning: String(b.model).includes('reasoning'),
      search: b.disable_search !== true,
    }),
    marker: (n) => `[${n}]`,
    thinkInline: true,
    extras: (b) => ({
      citations: SOURCES.map((s) => s.url),
      search_results: sources((s) => ({
        title: s.title,
        url: s.url,
        date: '2025-06-01',
        last_updated: '2025-06-02',
        snippet: '…',
        source: 'web',
      })),
      ...(b.return_related_questions === true ? { related_questions: RELATED } : {}),
      ...(b.return_images === true
        ? {
            images: IMAGES.map((i) => ({
              image_url: i.url,
              origin_url: i.origin,
              height: 400,
              width: 600,
            })),
          }
        : {}),
    }),
    refusal: { finish: 'content_filter' },
  },
  deepseek: {
    path: '/chat/completions',
    errors: ERRORS.deepseek!,
    modeOf: (b) => ({ reasoning: b.model === 'deepseek-reasoner' || thinking(b), search: false }),
    refusal: { finish: 'content_filter' },
  },
  kimi: {
    path: '/v1/chat/completions',
    errors: ERRORS.kimi!,
    modeOf: (b) => ({
      reasoning: String(b.model).includes('thinking') || thinking(b),
      search: tools(b).some(
        (t) => t.type === 'builtin_function' && obj(t.function).name === '$web_search',
      ),
    }),
    toolRoundTrip: true,
    refusal: {
      status: 400,
      body: {
        error: {
          message: 'The request was rejected because it was considered high risk',
          type: 'content_filter',
        },
      },
    },
  },
  zhipu: {
    path: '/api/paas/v4/chat/completions',
    errors: ERRORS.zhipu!,
    modeOf: (b) => ({
      reasoning: thinking(b),
      search: tools(b).some((t) => t.type === 'web_search' && obj(t.web_search).enable === true),
    }),
    marker: (n) => `[ref_${n}]`,
    // Sources come back only with search_result:true.
    extras: (b) =>
      tools(b).some((t) => obj(t.web_search).search_result === true)
        ? {
            web_search: sources((s, i) => ({
              refer: `ref_${i + 1}`,
              title: s.title,
              link: s.url,
              media: s.site,
              icon: s.icon,
              content: '…',
              publish_date: '2025-05-23',
            })),
          }
        : {},
    refusal: { finish: 'sensitive' },
  },
  yuanbao: {
    path: '/v1/chat/completions',
    errors: ERRORS.hunyuan!,
    modeOf: (b) => ({
      reasoning: String(b.model).includes('t1'),
      search: b.enable_enhancement === true,
    }),
    marker: (n) => `[${n}]`,
    extras: (b) => ({
      ...(b.search_info === true
        ? {
            search_info: {
              search_results: sources((s, i) => ({ index: i + 1, title: s.title, url: s.url })),
            },
          }
        : {}),
      ...(b.enable_recommended_questions === true ? { recommended_questions: RELATED } : {}),
    }),
    refusal: { finish: 'sensitive' },
  },
  wenxin: {
    path: '/v2/chat/completions',
    errors: ERRORS.qianfan!,
    modeOf: (b) => ({
      reasoning: String(b.model).includes('x1'),
      search: obj(b.web_search).enable === true,
    }),
    marker: (n) => `^[${n}]^`,
    extras: (b) =>
      obj(b.web_search).enable_trace === true
        ? { search_results: sources((s, i) => ({ index: i + 1, url: s.url, title: s.title })) }
        : {},
    refusal: { finish: 'content_filter' },
  },
  grok: {
    path: '/v1/chat/completions',
    errors: ERRORS.xai!,
    modeOf: (b) => ({ reasoning: b.model === 'grok-3-mini', search: false }),
    refusal: { finish: 'content_filter' },
  },
  doubao: {
    path: '/api/v3/chat/completions',
    errors: ERRORS.ark!,
    modeOf: (b) => ({ reasoning: thinking(b), search: false }),
    refusal: { finish: 'content_filter' },
  },
};

function chunk(id: string, delta: Body, finish: string | null = null, extra: Body = {}): Body {
  return {
    id,
    object: 'chat.completion.chunk',
    created: 1_750_000_000,
    model: 'm',
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
  const id = `chatcmpl-${req.path.length}`;
  if (fail === 'refusal' && 'status' in f.refusal)
    return sendJson(res, f.refusal.status, f.refusal.body);
  const frames: string[] = [frame(chunk(id, { role: 'assistant', content: '' }))];
  if (f.toolRoundTrip && mode.search && !(body.messages as Body[]).some((m) => m.role === 'tool')) {
    const args = JSON.stringify({
      search_result: { search_id: 'sr-1' },
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
      if (bearer(req) !== apiKey) return reply(res, f.errors.auth!);
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
      if (fail && fail in f.errors) return reply(res, f.errors[fail]!);
      await answer(f, req, res, fail);
    },
  };
}

function reply(res: ServerResponse, e: ErrorReply): void {
  sendJson(res, e.status, e.body, e.headers);
}
