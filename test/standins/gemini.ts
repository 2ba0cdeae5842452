/**
 * Stand-in for Gemini `:streamGenerateContent?alt=sse`: `x-goog-api-key`
 * checked (a bad key is a 400 API_KEY_INVALID), one whole
 * GenerateContentResponse per `data:` event, thought parts first, no
 * sentinel. The last chunk has `finishReason` and the `groundingMetadata`:
 * redirect URIs titled with the publisher's domain, and supports whose
 * segments are UTF-8 byte offsets (no `startIndex` when it is 0). Its 429s
 * are Google's three quota replies (`gemini-quota.ts`).
 */
import type { ServerResponse } from 'node:http';
import { ERRORS } from './errors.js';
import { GEMINI_QUOTA } from './gemini-quota.js';
import { answerText, Directives, REASONING, segments, SOURCES, isErrorReply } from './scenario.js';
import { deltas, frame, sendError, sendJson, sendSse, stall, type Route } from './server.js';

type Body = Record<string, unknown>;

export const redirectOf = (i: number) =>
  `https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ${i}x${'Q'.repeat(12)}`;
export const domainOf = (url: string) => new URL(url).hostname.replace(/^www\./, '');

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

async function answer(body: Body, res: ServerResponse, fail: string | undefined) {
  const prompt = String(((body.contents as Body[])[0]!.parts as Body[])[0]!.text);
  const config = ((body.generationConfig as Body | undefined)?.thinkingConfig ?? {}) as Body;
  const reasoning = config.includeThoughts === true && config.thinkingBudget !== 0;
  const search =
    Array.isArray(body.tools) &&
    body.tools.some((t: Body) => 'google_search' in t || 'googleSearch' in t);
  const segs = segments(prompt, search);
  const text = fail === 'empty' ? '' : answerText(segs);
  const frames: string[] = [];
  const chunk = (parts: Body[], extra: Body = {}) =>
    frame({
      candidates: [{ index: 0, content: { role: 'model', parts }, ...extra }],
      modelVersion: 'gemini-2.5-flash',
      responseId: 'r1',
    });
  if (reasoning)
    for (const d of deltas(REASONING)) frames.push(chunk([{ text: d, thought: true }]));
  if (fail === 'midstream') {
    frames.push(
      frame({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }),
    );
    return sendSse(res, frames);
  }
  const pieces = fail === 'refusal' ? [] : deltas(text, 12);
  pieces.forEach((d, i) =>
    frames.push(chunk([{ text: d, ...(i === 0 ? { thoughtSignature: 'c2ln' } : {}) }])),
  );
  const supports: Body[] = [];
  let at = 0;
  for (const s of segs) {
    const end = at + utf8(s.text);
    if (s.cite.length > 0)
      supports.push({
        segment: { ...(at > 0 ? { startIndex: at } : {}), endIndex: end, text: s.text },
        groundingChunkIndices: s.cite.map((n) => n - 1),
        confidenceScores: s.cite.map(() => 0.9),
      });
    at = end;
  }
  const grounding = search
    ? {
        groundingMetadata: {
          webSearchQueries: [prompt],
          searchEntryPoint: { renderedContent: '<div>chips</div>' },
          groundingChunks: SOURCES.map((s, i) => ({
            web: { uri: redirectOf(i), title: domainOf(s.url) },
          })),
          groundingSupports: supports,
        },
      }
    : {};
  frames.push(
    frame({
      candidates: [
        {
          index: 0,
          content: { role: 'model', parts: [{ text: '' }] },
          finishReason: fail === 'refusal' ? 'SAFETY' : 'STOP',
          ...grounding,
        },
      ],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 9, totalTokenCount: 14 },
    }),
  );
  return sendSse(res, frames, { keepAlive: false });
}

export function geminiRoute(apiKey: string): Route {
  const directives = new Directives();
  const errors = ERRORS.gemini!;
  return {
    matches: (path) => path.startsWith('/v1beta/models/'),
    handle: async (req, res) => {
      const m = /^\/v1beta\/models\/([^/:]+):streamGenerateContent\?alt=sse$/.exec(req.path);
      if (req.method !== 'POST' || !m)
        return sendJson(res, 404, {
          error: {
            code: 404,
            message: `models/x is not found for API version v1beta`,
            status: 'NOT_FOUND',
          },
        });
      if (req.headers['x-goog-api-key'] !== apiKey) return sendError(res, errors.auth);
      const body = req.body as Body | undefined;
      const parts = ((body?.contents as Body[] | undefined)?.[0]?.parts ?? []) as Body[];
      if (typeof parts[0]?.text !== 'string')
        return sendJson(res, 400, {
          error: {
            code: 400,
            message: 'contents[0].parts[0].text required',
            status: 'INVALID_ARGUMENT',
          },
        });
      const fail = directives.failure(String(parts[0].text));
      if (fail === 'slow') return stall(res);
      if (isErrorReply(fail)) return sendError(res, errors[fail]);
      if (fail === 'quota_day' || fail === 'quota_plan') return sendError(res, GEMINI_QUOTA[fail]);
      await answer(body!, res, fail);
    },
  };
}
