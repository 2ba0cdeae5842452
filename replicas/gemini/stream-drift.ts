/**
 * The stream drifts (replicas/common/drift.ts) in Gemini's RPC chunks,
 * applied to the chunks chatChunks made: content-free `di` chunks at the
 * start and between chunks; the answer's first characters moved out of
 * every snapshot's text into an envelope of a tag no known format names
 * (`wrb.rt`, once, before the first snapshot with text); the candidate's
 * `[text]` list turned into a keyed object `{"markdown": text}` (the
 * nearest an unnamed array comes to a renamed field). The page script
 * renders all of them, as the site's own next build would.
 */
import { hasDrift, type Drifts } from '../common/drift.js';
import { rpcChunk } from './frames.js';

/** How many characters of the answer the unknown envelope takes. */
const MOVED_CHARS = 6;

type Rewrite = (candidate: unknown[]) => unknown[];

/** The chunk's envelopes, when it is one. */
function envelopesOf(chunk: string): unknown[] | undefined {
  const m = /^\d+\n([\s\S]*)\n$/.exec(chunk);
  return m ? (JSON.parse(m[1]!) as unknown[]) : undefined;
}

/** The candidate list inside a payload: the list whose first item is `rc_…`. */
function mapCandidate(v: unknown, f: Rewrite): unknown {
  if (!Array.isArray(v)) return v;
  if (typeof v[0] === 'string' && v[0].startsWith('rc_')) return f(v);
  return v.map((x) => mapCandidate(x, f));
}

/** Each `wrb.fr` payload's candidate rewritten by `f`; other chunks as they were. */
function mapCandidates(chunks: string[], f: Rewrite): string[] {
  return chunks.map((chunk) => {
    const envelopes = envelopesOf(chunk);
    if (!envelopes) return chunk;
    return rpcChunk(
      envelopes.map((e) =>
        Array.isArray(e) && e[0] === 'wrb.fr' && typeof e[2] === 'string'
          ? [e[0], e[1], JSON.stringify(mapCandidate(JSON.parse(e[2]), f)), ...e.slice(3)]
          : e,
      ),
    );
  });
}

/** The candidate's text list (its first `[string]` after the id) and where it is. */
function textAt(c: unknown[]): number {
  return c.findIndex((x, i) => i > 0 && Array.isArray(x) && typeof x[0] === 'string');
}

const isEnd = (chunk: string) =>
  (envelopesOf(chunk) ?? []).some((e) => Array.isArray(e) && e[0] === 'e');

export function driftGeminiStream(chunks: string[], drifts: Drifts | undefined): string[] {
  let out = chunks;
  if (hasDrift(drifts, 'unknown_content_frame')) {
    let moved = '';
    out = mapCandidates(out, (c) => {
      const i = textAt(c);
      if (i < 0) return c;
      const text = (c[i] as string[])[0]!;
      const chars = Array.from(text);
      if (!moved && chars.length > 0) moved = chars.slice(0, MOVED_CHARS).join('');
      const copy = [...c];
      copy[i] = [text.startsWith(moved) ? text.slice(moved.length) : text];
      return copy;
    });
    const first = out.findIndex((chunk, i) => chunk !== chunks[i]);
    if (moved && first >= 0)
      out = [
        ...out.slice(0, first),
        rpcChunk([['wrb.rt', null, JSON.stringify([[moved]])]]),
        ...out.slice(first),
      ];
  }
  if (hasDrift(drifts, 'renamed_fields'))
    out = mapCandidates(out, (c) => {
      const i = textAt(c);
      if (i < 0) return c;
      const copy = [...c];
      copy[i] = { markdown: (c[i] as string[])[0] };
      return copy;
    });
  if (hasDrift(drifts, 'empty_sentinels')) {
    const sentinel = rpcChunk([['di', 1]]);
    const end = out.findIndex(isEnd);
    const before = end >= 0 ? out.slice(0, end) : out;
    const after = end >= 0 ? out.slice(end) : [];
    out = [sentinel, ...before.flatMap((c) => [c, sentinel]), ...after];
  }
  return out;
}
