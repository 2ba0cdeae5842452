/**
 * The stream drifts (replicas/common/drift.ts) in ChatGPT's v1 frames,
 * applied to the frames chatFrames made: content-free frames (`{}`) at the
 * start and between frames, none after the end; the answer's first
 * characters moved out of its first append into a typed frame no known
 * build sends (`text_delta_v2` with `text`); the answer's text kept at
 * `/message/content/text` instead of `/message/content/parts/0`. The page
 * script renders all of them, as the site's own next build would.
 */
import { hasDrift, type Drifts } from '../common/drift.js';
import type { Frame } from './frames.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** How many characters of the answer the unknown frame takes. */
const MOVED_CHARS = 6;
const PARTS = '/message/content/parts/0';
const RENAMED = '/message/content/text';

const isEnd = (f: Frame) =>
  f.data === '[DONE]' || (isObj(f.data) && f.data.type === 'message_stream_complete');
/** The add that opens the answer message (a text message to all). */
const opensAnswer = (f: Frame) => {
  const m = isObj(f.data) && isObj(f.data.v) ? f.data.v.message : undefined;
  return (
    isObj(m) &&
    isObj(m.content) &&
    m.content.content_type === 'text' &&
    isObj(m.author) &&
    m.author.role === 'assistant' &&
    m.recipient === 'all'
  );
};

export function driftChatgptStream(frames: Frame[], drifts: Drifts | undefined): Frame[] {
  let out = frames;
  if (hasDrift(drifts, 'unknown_content_frame')) {
    const first = out.findIndex(
      (f) => isObj(f.data) && f.data.p === PARTS && f.data.o === 'append',
    );
    if (first >= 0) {
      const op = out[first]!.data as Obj;
      const chars = Array.from(op.v as string);
      out = [
        ...out.slice(0, first),
        { data: { type: 'text_delta_v2', text: chars.slice(0, MOVED_CHARS).join('') } },
        { ...out[first]!, data: { ...op, v: chars.slice(MOVED_CHARS).join('') } },
        ...out.slice(first + 1),
      ];
    }
  }
  if (hasDrift(drifts, 'renamed_fields'))
    out = out.map((f) => {
      if (opensAnswer(f)) {
        const d = f.data as Obj;
        const v = d.v as Obj;
        const m = v.message as Obj;
        const content = { ...(m.content as Obj) };
        delete content.parts;
        return {
          ...f,
          data: { ...d, v: { ...v, message: { ...m, content: { ...content, text: '' } } } },
        };
      }
      if (isObj(f.data) && f.data.p === PARTS) return { ...f, data: { ...f.data, p: RENAMED } };
      return f;
    });
  if (hasDrift(drifts, 'empty_sentinels')) {
    const sentinel: Frame = { data: {} };
    const end = out.findIndex(isEnd);
    const head = end >= 0 ? out.slice(0, end) : out;
    out = [sentinel, ...head.flatMap((f) => [f, sentinel]), ...(end >= 0 ? out.slice(end) : [])];
  }
  return out;
}
