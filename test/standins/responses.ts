/**
 * Stand-in for the Responses API (OpenAI, xAI, Volcengine Ark): typed SSE
 * events (`event:` + `data:` with `type` and `sequence_number`), no `[DONE]`,
 * ending with `response.completed` (xAI: `response.done`) carrying the whole
 * response. OpenAI lists sources in `web_search_call.action.sources` when
 * asked with `include`, and cites them on `utm_source=openai` URLs; xAI lists
 * every source its search encountered in the response's `citations` (three,
 * one never cited), writes inline links `[[n]](url)` numbered by citation and
 * its annotations carry only the URL; Ark's carry title, site, logo and cover
 * image but no offsets.
 */
import type { ServerResponse } from 'node:http';
import { ERRORS } from './errors.js';
import {
  answerText,
  Directives,
  REASONING,
  segments,
  servedModel,
  SOURCES,
  isErrorReply,
  XAI_FOUND,
  xaiMarker,
} from './scenario.js';
import {
  bearer,
  deltas,
  frame,
  sendError,
  sendJson,
  sendSse,
  stall,
  type Route,
} from './server.js';

type Body = Record<string, unknown>;

interface Flavour {
  path: string;
  errors: (typeof ERRORS)[string];
  reasoning(b: Body): boolean;
  annotation(i: number, start: number, end: number): Body;
  /** How the text marks a citation of source n (1-based), if it does. */
  marker?: (n: number) => string;
  terminal: string;
}

const tools = (b: Body) => (Array.isArray(b.tools) ? (b.tools as Body[]) : []);

export const RESPONSES_FLAVOURS: Record<string, Flavour> = {
  chatgpt: {
    path: '/v1/responses',
    errors: ERRORS.openai!,
    reasoning: (b) => (b.reasoning as Body | undefined)?.summary === 'auto',
    // OpenAI tags the URLs it cites, not the sources it lists (platforms.md §3).
    annotation: (i, start, end) => ({
      type: 'url_citation',
      url: `${SOURCES[i]!.url}?utm_source=openai`,
      title: SOURCES[i]!.title,
      start_index: start,
      end_index: end,
    }),
    terminal: 'response.completed',
  },
  grok: {
    path: '/v1/responses',
    errors: ERRORS.xai!,
    reasoning: (b) => /(?<!non)-reasoning$/.test(String(b.model)),
    annotation: (i) => ({ type: 'url_citation', url: SOURCES[i]!.url }),
    marker: xaiMarker,
    terminal: 'response.done',
  },
  doubao: {
    path: '/api/v3/responses',
    errors: ERRORS.ark!,
    reasoning: (b) => (b.thinking as Body | undefined)?.type === 'enabled',
    annotation: (i) => ({
      type: 'url_citation',
      url: SOURCES[i]!.url,
      title: SOURCES[i]!.title,
      site_name: SOURCES[i]!.site,
      logo_url: SOURCES[i]!.icon,
      cover_image: { url: `${SOURCES[i]!.url}cover.jpg`, width: 640, height: 360 },
      summary: '…',
    }),
    terminal: 'response.completed',
  },
};

async function answer(
  name: string,
  f: Flavour,
  body: Body,
  res: ServerResponse,
  fail: string | undefined,
) {
  const prompt = String(body.input);
  const search = tools(body).some((t) => t.type === 'web_search');
  const reasoning = f.reasoning(body);
  const segs = segments(prompt, search);
  const marker = search ? f.marker : undefined;
  const text = fail === 'empty' ? '' : answerText(segs, marker);
  const annotations: Body[] = [];
  let at = 0;
  for (const s of segs) {
    const len = Array.from(s.text + (marker ? s.cite.map(marker).join('') : '')).length;
    for (const n of s.cite) annotations.push(f.annotation(n - 1, at, at + len));
    at += len;
  }
  const output: Body[] = [];
  let seq = 0;
  const frames: string[] = [];
  const emit = (type: string, data: Body) =>
    frames.push(frame({ type, sequence_number: ++seq, ...data }, type));
  emit('response.created', {
    response: {
      id: 'resp_1',
      object: 'response',
      status: 'in_progress',
      model: servedModel(body.model),
      output: [],
    },
  });
  if (reasoning) {
    const item = {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: REASONING }],
    };
    emit('response.output_item.added', {
      output_index: output.length,
      item: { ...item, summary: [] },
    });
    for (const d of deltas(REASONING))
      emit('response.reasoning_summary_text.delta', {
        item_id: 'rs_1',
        output_index: output.length,
        summary_index: 0,
        delta: d,
      });
    emit('response.output_item.done', { output_index: output.length, item });
    output.push(item);
  }
  if (search) {
    const withSources =
      name !== 'chatgpt' ||
      (Array.isArray(body.include) && body.include.includes('web_search_call.action.sources'));
    const action: Body = {
      type: 'search',
      query: prompt,
      ...(withSources && name === 'chatgpt'
        ? { sources: SOURCES.map((s) => ({ type: 'url', url: s.url })) }
        : {}),
    };
    const item =
      name === 'grok'
        ? {
            type: 'web_search_call',
            id: 'fc_1',
            call_id: '',
            name: 'web_search',
            arguments: JSON.stringify({ query: prompt, num_results: 5 }),
            status: 'completed',
          }
        : { type: 'web_search_call', id: 'ws_1', status: 'completed', action };
    emit('response.output_item.added', {
      output_index: output.length,
      item: { ...item, status: 'in_progress' },
    });
    emit('response.web_search_call.searching', { output_index: output.length, item_id: item.id });
    emit('response.output_item.done', { output_index: output.length, item });
    output.push(item);
  }
  if (fail === 'midstream') {
    emit('error', {
      code: 'server_error',
      message: 'The server had an error while processing your request',
      param: null,
    });
    return sendSse(res, frames);
  }
  const message: Body = {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content:
      fail === 'refusal'
        ? [{ type: 'refusal', refusal: "I'm sorry, I can't help with that." }]
        : [{ type: 'output_text', text, logprobs: [], annotations }],
  };
  emit('response.output_item.added', {
    output_index: output.length,
    item: { type: 'message', id: 'msg_1', role: 'assistant', content: [], status: 'in_progress' },
  });
  if (fail === 'refusal')
    emit('response.refusal.delta', {
      item_id: 'msg_1',
      output_index: output.length,
      content_index: 0,
      delta: "I'm sorry, I can't help with that.",
    });
  else {
    for (const d of deltas(text))
      emit('response.output_text.delta', {
        item_id: 'msg_1',
        output_index: output.length,
        content_index: 0,
        delta: d,
        logprobs: [],
      });
    annotations.forEach((a, i) =>
      emit('response.output_text.annotation.added', {
        item_id: 'msg_1',
        output_index: output.length,
        content_index: 0,
        annotation_index: i,
        annotation: a,
      }),
    );
    emit('response.output_text.done', {
      item_id: 'msg_1',
      output_index: output.length,
      content_index: 0,
      text,
    });
  }
  emit('response.output_item.done', { output_index: output.length, item: message });
  output.push(message);
  emit(f.terminal, {
    response: {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: servedModel(body.model),
      output,
      ...(search && name === 'grok'
        ? { citations: XAI_FOUND.map((n) => SOURCES[n - 1]!.url) }
        : {}),
      usage: { input_tokens: 5, output_tokens: 9, total_tokens: 14 },
    },
  });
  return sendSse(res, frames);
}

export function responsesRoute(name: string, apiKey: string): Route {
  const f = RESPONSES_FLAVOURS[name]!;
  const directives = new Directives();
  return {
    matches: (path) => path === f.path,
    handle: async (req, res) => {
      if (req.method !== 'POST' || req.path !== f.path)
        return sendJson(res, 404, {
          error: { message: `no route ${req.path}`, type: 'not_found' },
        });
      if (bearer(req) !== apiKey) return sendError(res, f.errors.auth);
      const body = req.body as Body | undefined;
      if (
        !body ||
        typeof body.input !== 'string' ||
        typeof body.model !== 'string' ||
        body.stream !== true
      ) {
        return sendJson(res, 400, {
          error: {
            message: 'model, input and stream:true expected',
            type: 'invalid_request_error',
          },
        });
      }
      const fail = directives.failure(body.input);
      if (fail === 'slow') return stall(res);
      if (isErrorReply(fail)) return sendError(res, f.errors[fail]);
      await answer(name, f, body, res, fail);
    },
  };
}
