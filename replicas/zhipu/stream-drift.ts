/**
 * The stream drifts (replicas/common/drift.ts) in ChatGLM's snapshot
 * frames, applied to the frames chatFrames made: content-free frames (a
 * status without parts) at the start and between snapshots; the answer's
 * first characters moved out of the text item into an item of a type no
 * known format names (`rich_text`, in every snapshot, as the site's next
 * build would send it); the text items' `text` renamed `content`. The page
 * script renders all of them, as the site's own next build would.
 */
import { hasDrift, type Drifts } from '../common/drift.js';

type Obj = Record<string, unknown>;
const data = (v: unknown) => `data: ${JSON.stringify(v)}\n\n`;
/** How many characters of the answer the unknown item takes. */
const MOVED_CHARS = 6;

function json(frame: string): Obj | undefined {
  const m = /^data: (\{.*\})\n\n$/s.exec(frame);
  if (!m) return undefined;
  const v = JSON.parse(m[1]!) as unknown;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** Each text item of the frame's parts, rewritten by `f`; other frames as they were. */
function mapTextItems(frame: string, f: (item: Obj) => Obj[]): string {
  const j = json(frame);
  if (!j || !Array.isArray(j.parts)) return frame;
  const parts = (j.parts as Obj[]).map((p) => ({
    ...p,
    content: (p.content as Obj[]).flatMap((item) =>
      item.type === 'text' && typeof item.text === 'string' ? f(item) : [item],
    ),
  }));
  return data({ ...j, parts });
}

export function driftZhipuStream(frames: string[], drifts: Drifts | undefined): string[] {
  let out = frames;
  if (hasDrift(drifts, 'unknown_content_frame'))
    out = out.map((fr) =>
      mapTextItems(fr, (item) => {
        const chars = Array.from(item.text as string);
        return [
          { type: 'rich_text', content: chars.slice(0, MOVED_CHARS).join('') },
          { ...item, text: chars.slice(MOVED_CHARS).join('') },
        ];
      }),
    );
  if (hasDrift(drifts, 'renamed_fields'))
    out = out.map((fr) =>
      mapTextItems(fr, (item) => {
        const { text, ...rest } = item;
        return [{ ...rest, content: text }];
      }),
    );
  if (hasDrift(drifts, 'empty_sentinels')) {
    const first = json(out[0] ?? '');
    const sentinel = data({ conversation_id: first?.conversation_id ?? '', status: 'init' });
    out = [sentinel, ...out.flatMap((f) => [f, sentinel])];
    // Nothing after the end: the sentinels ride before it, as frames of the answer.
    const end = out.findIndex((f) => json(f)?.status === 'finish');
    if (end >= 0)
      out = [...out.slice(0, end + 1), ...out.slice(end + 1).filter((f) => f !== sentinel)];
  }
  return out;
}
