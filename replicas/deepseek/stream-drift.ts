/**
 * The stream drifts (replicas/common/drift.ts) in DeepSeek's `{v,p,o}` patch
 * stream, applied to the frames chatFrames made: `data: {}` frames (no patch)
 * at the start and between chunks; the answer's first text increment after
 * the RESPONSE fragment moved into an unknown `event: delta` with `{text}`;
 * the answer's text increments naming their value `content` instead of `v`.
 * The page script renders all of them, as the site's own next build would.
 */
import { hasDrift, type Drifts } from '../common/drift.js';

type Obj = Record<string, unknown>;
const data = (v: unknown) => `data: ${JSON.stringify(v)}\n\n`;

/** A message frame's patch, when it is a text increment of the newest fragment. */
function increment(frame: string): Obj | undefined {
  const m = /^data: (\{.*\})\n\n$/s.exec(frame);
  if (!m) return undefined;
  const v = JSON.parse(m[1]!) as Obj;
  const bare = v.p === undefined && v.o === undefined;
  const append = v.p === 'response/fragments/-1/content' && v.o === 'APPEND';
  return typeof v.v === 'string' && (bare || append) ? v : undefined;
}

export function driftDeepseekStream(frames: string[], drifts: Drifts | undefined): string[] {
  let out = frames;
  const response = out.findIndex((f) => f.includes('"type":"RESPONSE"'));
  const inAnswer = (i: number) => response >= 0 && i > response;
  if (hasDrift(drifts, 'unknown_content_frame')) {
    const at = out.findIndex((f, i) => inAnswer(i) && increment(f)?.v !== '');
    if (at >= 0) {
      const text = increment(out[at]!)!.v;
      out = out.with(at, `event: delta\ndata: ${JSON.stringify({ text })}\n\n`);
    }
  }
  if (hasDrift(drifts, 'renamed_fields'))
    out = out.map((f, i) => {
      const patch = inAnswer(i) ? increment(f) : undefined;
      if (!patch) return f;
      const { v, ...rest } = patch;
      return data({ ...rest, content: v });
    });
  if (hasDrift(drifts, 'empty_sentinels')) {
    const sentinel = data({});
    out = [sentinel, ...out.flatMap((f, i) => (i < out.length - 1 ? [f, sentinel] : [f]))];
  }
  return out;
}
