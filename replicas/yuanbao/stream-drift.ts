/**
 * The stream drifts (replicas/common/drift.ts) in Yuanbao's `data:` JSON
 * frames, applied to the frames chatFrames made: the bare `{"type":"text"}`
 * sentinel public 2026 captures open with, at the start and between chunks;
 * the answer's first text piece moved into a `markdown` frame, a type no
 * known format names; the text frames' `msg` renamed `message`. The page
 * script renders all of them, as the site's own next build would.
 */
import { hasDrift, type Drifts } from '../common/drift.js';

type Obj = Record<string, unknown>;
const data = (v: unknown) => `data: ${JSON.stringify(v)}\n\n`;

/** A frame's JSON object, when it is one. */
function json(frame: string): Obj | undefined {
  const m = /^data: (\{.*\})\n\n$/s.exec(frame);
  if (!m) return undefined;
  const v = JSON.parse(m[1]!) as unknown;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}
const isText = (f: Obj | undefined): f is Obj =>
  f?.type === 'text' && typeof f.msg === 'string' && f.stopReason === undefined;

export function driftYuanbaoStream(frames: string[], drifts: Drifts | undefined): string[] {
  let out = frames;
  if (hasDrift(drifts, 'unknown_content_frame')) {
    const at = out.findIndex((f) => isText(json(f)) && json(f)!.msg !== '');
    if (at >= 0) out = out.with(at, data({ type: 'markdown', msg: json(out[at]!)!.msg }));
  }
  if (hasDrift(drifts, 'renamed_fields'))
    out = out.map((f) => {
      const j = json(f);
      if (!isText(j)) return f;
      const { msg, ...rest } = j;
      return data({ ...rest, message: msg });
    });
  if (hasDrift(drifts, 'empty_sentinels')) {
    const sentinel = data({ type: 'text' });
    out = [sentinel, ...out.flatMap((f) => (json(f)?.type === 'text' ? [f, sentinel] : [f]))];
  }
  return out;
}
