/**
 * The stream drifts (replicas/common/drift.ts) in Kimi's Connect format,
 * applied to the messages connectMessages made: content-free messages (`{}`
 * and an empty `block.text` append) at the start and between chunks; the
 * answer's first text piece moved into a `block.markdown` message, a mask no
 * known format names; the text blocks' `content` renamed `markdown`. The page
 * script renders all of them, as the site's own next build would.
 */
import { hasDrift, type Drifts } from '../common/drift.js';
import type { ConnectMessage } from './frames.js';

type Obj = Record<string, unknown>;
const isTextAppend = (m: ConnectMessage) => !m.end && (m.json as Obj).mask === 'block.text.content';
const textOf = (m: ConnectMessage) => (((m.json as Obj).block as Obj)?.text as Obj) ?? {};

export function driftKimiStream(
  messages: ConnectMessage[],
  drifts: Drifts | undefined,
): ConnectMessage[] {
  let out = messages.map((m) => ({ ...m, json: structuredClone(m.json) }));
  if (hasDrift(drifts, 'unknown_content_frame')) {
    const at = out.findIndex((m) => isTextAppend(m) && textOf(m).content);
    if (at >= 0) {
      const block = (out[at]!.json as Obj).block as Obj;
      out[at] = {
        json: {
          op: 'append',
          mask: 'block.markdown',
          block: { id: block.id, markdown: { content: textOf(out[at]!).content } },
        },
      };
    }
  }
  if (hasDrift(drifts, 'renamed_fields'))
    for (const m of out) {
      const mask = (m.json as Obj).mask;
      const text = textOf(m);
      if ((mask === 'block.text' || mask === 'block.text.content') && 'content' in text) {
        text.markdown = text.content;
        delete text.content;
      }
    }
  if (hasDrift(drifts, 'empty_sentinels')) {
    const empty = (i: number): ConnectMessage =>
      i % 2 === 0
        ? { json: {} }
        : { json: { op: 'append', mask: 'block.text.content', block: { id: 'text-0', text: {} } } };
    out = [empty(0), ...out.flatMap((m, i) => (isTextAppend(m) ? [m, empty(i)] : [m]))];
  }
  return out;
}
