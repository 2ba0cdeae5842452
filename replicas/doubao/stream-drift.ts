/**
 * The stream drifts (replicas/common/drift.ts) in Doubao's 2026 format, applied
 * to the frames frames2026 made: content-free STREAM_CHUNK / CHUNK_DELTA
 * frames at the start and between chunks; the answer's first text piece moved
 * into a `STREAM_CHUNK_V2` `delta_ops[{op:'append', block_id, text}]` event
 * (the renamed chunk event of issue 29); the text blocks' `text_block.text`
 * and CHUNK_DELTA's `text` renamed `markdown`. The page script renders all of
 * them, as the site's own next build would.
 */
import { hasDrift, type Drifts } from '../common/drift.js';

type Obj = Record<string, unknown>;
const FRAME = /^(id: \d+\n)?event: (\S+)\ndata: (.*)\n\n$/s;

interface Parsed {
  event: string;
  data: Obj;
}
const parse = (frame: string): Parsed | undefined => {
  const m = FRAME.exec(frame);
  return m ? { event: m[2]!, data: JSON.parse(m[3]!) as Obj } : undefined;
};
const write = (p: Parsed) => `event: ${p.event}\ndata: ${JSON.stringify(p.data)}\n\n`;

/** The answer's text blocks in a frame (10000 without a parent), wherever it holds them. */
function answerBlocks(data: Obj): Obj[] {
  const message = (data.message ?? data.meta ?? {}) as Obj;
  // The user's own message echoed back is not the answer.
  if (message.user_type === 1 || message.content_type === 9999) return [];
  const holders: unknown[] = [data.content];
  for (const op of Array.isArray(data.patch_op) ? (data.patch_op as Obj[]) : [])
    if (op.patch_object === 1) holders.push(op.patch_value);
  return holders.flatMap((h) => {
    const list = (h as Obj | undefined)?.content_block;
    return Array.isArray(list) ? (list as Obj[]).filter((b) => b.block_type === 10000) : [];
  });
}

export function driftDoubaoStream(frames: string[], drifts: Drifts | undefined): string[] {
  let out = frames;
  if (hasDrift(drifts, 'unknown_content_frame')) {
    let moved = false;
    out = out.flatMap((f) => {
      const p = parse(f);
      if (moved || !p) return [f];
      const block = answerBlocks(p.data).find(
        (b) => !b.parent_id && ((b.content as Obj)?.text_block as Obj)?.text,
      );
      if (!block) return [f];
      const tb = (block.content as Obj).text_block as Obj;
      const text = tb.text as string;
      tb.text = '';
      moved = true;
      const v2 = { delta_ops: [{ op: 'append', block_id: block.block_id, text }] };
      return [write(p), write({ event: 'STREAM_CHUNK_V2', data: v2 })];
    });
  }
  if (hasDrift(drifts, 'renamed_fields'))
    out = out.map((f) => {
      const p = parse(f);
      if (!p) return f;
      if (p.event === 'CHUNK_DELTA' && typeof p.data.text === 'string') {
        p.data = { markdown: p.data.text };
        return write(p);
      }
      for (const b of answerBlocks(p.data)) {
        const tb = (b.content as Obj)?.text_block as Obj | undefined;
        if (tb && 'text' in tb) {
          tb.markdown = tb.text;
          delete tb.text;
        }
      }
      return write(p);
    });
  if (hasDrift(drifts, 'empty_sentinels')) {
    const sentinels = [
      'event: STREAM_CHUNK\ndata: {"patch_op":[]}\n\n',
      'event: CHUNK_DELTA\ndata: {"text":""}\n\n',
    ];
    const last = out.length - 1;
    out = [sentinels[0]!, ...out.flatMap((f, i) => (i < last ? [f, sentinels[i % 2]!] : [f]))];
  }
  return out;
}
