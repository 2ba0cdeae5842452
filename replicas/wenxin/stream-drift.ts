/**
 * The stream drifts (replicas/common/drift.ts) in Yiyan's `event:`/`data:`
 * frames, applied to the frames chatFrames made: a content-free `message`
 * frame (`{"code":0,"data":{}}`) at the start and between chunks; the
 * answer's first text piece moved into a `markdown` event, which no known
 * format names; the message frames' `content` renamed `text`. The page
 * script renders all of them, as the site's own next build would.
 */
import { hasDrift, type Drifts } from '../common/drift.js';
import { frame } from './frames.js';

type Obj = Record<string, unknown>;

/** A frame's event and data object, when it is one of the named-event frames. */
function parsed(f: string): { event: string; data: Obj } | undefined {
  const m = /^event:(\w+)\ndata:(\{.*\})\n\n$/s.exec(f);
  if (!m) return undefined;
  const v = JSON.parse(m[2]!) as { data?: unknown };
  const data = v.data;
  return typeof data === 'object' && data !== null
    ? { event: m[1]!, data: data as Obj }
    : undefined;
}
const isText = (p: ReturnType<typeof parsed>): p is { event: string; data: Obj } =>
  p?.event === 'message' &&
  typeof p.data.content === 'string' &&
  p.data.content !== '' &&
  p.data.is_end === 0;

export function driftWenxinStream(frames: string[], drifts: Drifts | undefined): string[] {
  let out = frames;
  if (hasDrift(drifts, 'unknown_content_frame')) {
    const at = out.findIndex((f) => isText(parsed(f)));
    if (at >= 0) {
      const { content, searchCitations, ...rest } = parsed(out[at]!)!.data;
      const moved = frame('markdown', { ...rest, text: content, is_end: 0 });
      out = searchCitations
        ? out.toSpliced(at, 1, frame('message', { content: '', is_end: 0, searchCitations }), moved)
        : out.with(at, moved);
    }
  }
  if (hasDrift(drifts, 'renamed_fields'))
    out = out.map((f) => {
      const p = parsed(f);
      if (!isText(p)) return f;
      const { content, ...rest } = p.data;
      return frame('message', { ...rest, text: content });
    });
  if (hasDrift(drifts, 'empty_sentinels')) {
    const sentinel = frame('message', {});
    out = [
      out[0]!,
      sentinel,
      ...out.slice(1).flatMap((f) => (isText(parsed(f)) ? [f, sentinel] : [f])),
    ];
  }
  return out;
}
