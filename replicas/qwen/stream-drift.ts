/**
 * The stream drifts (replicas/common/drift.ts) in chat.qwen.ai's delta
 * frames, applied to the frames chatFrames made: empty answer deltas (no
 * content) at the start and between pieces; the answer's first piece moved
 * into a delta of a phase no known format names (`markdown`); the answer
 * deltas' `content` renamed `text`. The page script renders all of them, as
 * the site's own next build would.
 */
import { hasDrift, type Drifts } from '../common/drift.js';

type Obj = Record<string, unknown>;
const delta = (d: Obj) => `data: ${JSON.stringify({ choices: [{ delta: d }] })}\n\n`;

/** A frame's answer delta with text, when it is one. */
function answerDelta(frame: string): Obj | undefined {
  const m = /^data: (\{.*\})\n\n$/s.exec(frame);
  if (!m) return undefined;
  const v = JSON.parse(m[1]!) as { choices?: { delta?: Obj }[] };
  const d = Array.isArray(v.choices) ? v.choices[0]?.delta : undefined;
  return d?.phase === 'answer' && typeof d.content === 'string' && d.content !== '' ? d : undefined;
}

export function driftQwenStream(frames: string[], drifts: Drifts | undefined): string[] {
  let out = frames;
  if (hasDrift(drifts, 'unknown_content_frame')) {
    const at = out.findIndex((f) => answerDelta(f) !== undefined);
    if (at >= 0) out = out.with(at, delta({ ...answerDelta(out[at]!)!, phase: 'markdown' }));
  }
  if (hasDrift(drifts, 'renamed_fields'))
    out = out.map((f) => {
      const d = answerDelta(f);
      if (!d) return f;
      const { content, ...rest } = d;
      return delta({ ...rest, text: content });
    });
  if (hasDrift(drifts, 'empty_sentinels')) {
    const sentinel = delta({ role: 'assistant', content: '', phase: 'answer', status: 'typing' });
    out = out.flatMap((f, i) => (i === 0 ? [f, sentinel] : answerDelta(f) ? [f, sentinel] : [f]));
  }
  return out;
}
