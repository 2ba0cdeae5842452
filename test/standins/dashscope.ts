/**
 * Stand-in for DashScope's native generation API: bearer key, streaming only
 * with `X-DashScope-SSE: enable`, events of `id:` / `event:result` /
 * `:HTTP_STATUS/200` / `data:` lines, incremental text, no `[DONE]` (the last
 * result has `finish_reason: "stop"`). With `prepend_search_result` the first
 * event carries `output.search_info`; citations follow `citation_format`.
 * Errors are flat `{code, message, request_id}`; mid-stream `event:error`.
 */
import type { ServerResponse } from 'node:http';
import { ERRORS } from './errors.js';
import { answerText, Directives, REASONING, segments, SOURCES, isErrorReply } from './scenario.js';
import { bearer, deltas, sendError, sendJson, sendSse, stall, type Route } from './server.js';

type Body = Record<string, unknown>;

let counter = 0;
function event(data: Body, name = 'result', status = 200): string {
  return `id:${++counter}\nevent:${name}\n:HTTP_STATUS/${status}\ndata:${JSON.stringify(data)}\n\n`;
}

const result = (message: Body, finish: string = 'null', extra: Body = {}) => ({
  output: {
    choices: [{ message: { role: 'assistant', content: '', ...message }, finish_reason: finish }],
    ...extra,
  },
  usage: { input_tokens: 5, output_tokens: 1, total_tokens: 6 },
  request_id: 'req-1',
});

async function answer(body: Body, res: ServerResponse, fail: string | undefined) {
  const params = (body.parameters ?? {}) as Body;
  const options = (params.search_options ?? {}) as Body;
  const prompt = String((((body.input as Body).messages as Body[])[0] as Body).content);
  const search = params.enable_search === true;
  const withSources = search && options.enable_source === true;
  const format = String(options.citation_format ?? '[<number>]');
  const marker =
    search && options.enable_citation === true
      ? (n: number) => format.replace('<number>', String(n))
      : undefined;
  const text = fail === 'empty' ? '' : answerText(segments(prompt, withSources), marker);
  const info = withSources
    ? {
        search_info: {
          search_results: SOURCES.map((s, i) => ({
            index: i + 1,
            title: s.title,
            url: s.url,
            site_name: s.site,
            icon: s.icon,
          })),
        },
      }
    : {};
  const frames: string[] = [];
  if (options.prepend_search_result === true && withSources)
    frames.push(event(result({}, 'null', info)));
  if (params.enable_thinking === true)
    for (const d of deltas(REASONING)) frames.push(event(result({ reasoning_content: d })));
  if (fail === 'midstream') {
    frames.push(
      event(
        { code: 'InternalError', message: 'An internal error has occured', request_id: 'req-1' },
        'error',
        500,
      ),
    );
    return sendSse(res, frames, { keepAlive: false });
  }
  if (fail === 'refusal') {
    frames.push(
      event(
        {
          code: 'DataInspectionFailed',
          message: 'Output data may contain inappropriate content.',
          request_id: 'req-1',
        },
        'error',
        400,
      ),
    );
    return sendSse(res, frames, { keepAlive: false });
  }
  for (const d of deltas(text)) frames.push(event(result({ content: d })));
  frames.push(event(result({}, 'stop', info)));
  return sendSse(res, frames, { keepAlive: false });
}

export function dashscopeRoute(apiKey: string): Route {
  const directives = new Directives();
  const errors = ERRORS.dashscope!;
  return {
    matches: (path) => path.startsWith('/api/v1/services/aigc/'),
    handle: async (req, res) => {
      if (req.method !== 'POST' || req.path !== '/api/v1/services/aigc/text-generation/generation')
        return sendJson(res, 404, { code: 'NotFound', message: 'not found', request_id: 'r0' });
      if (bearer(req) !== apiKey) return sendError(res, errors.auth);
      const body = req.body as Body | undefined;
      const messages = ((body?.input as Body | undefined)?.messages ?? []) as Body[];
      if (!body || typeof body.model !== 'string' || messages.length === 0)
        return sendJson(res, 400, {
          code: 'InvalidParameter',
          message: 'model and input.messages required',
          request_id: 'r0',
        });
      if (req.headers['x-dashscope-sse'] !== 'enable')
        return sendJson(res, 400, {
          code: 'InvalidParameter',
          message: 'this stand-in streams only',
          request_id: 'r0',
        });
      const fail = directives.failure(String(messages[0]!.content));
      if (fail === 'slow') return stall(res);
      if (isErrorReply(fail)) return sendError(res, errors[fail]);
      await answer(body, res, fail);
    },
  };
}
