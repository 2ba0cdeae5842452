/**
 * The replica's `StreamGenerate` response in Gemini's own wire format
 * (crawler/platforms/gemini/web/stream.ts names the sources): the `)]}'`
 * guard, then length-prefixed chunks (the length in UTF-16 units from the
 * newline after the digits) of RPC envelopes; each `wrb.fr` envelope's
 * payload is a JSON string of nested arrays holding the response candidate,
 * a cumulative snapshot of the answer so far; `di` / `af.httprm`
 * bookkeeping and the `e` envelope close the response.
 *
 * Index layouts, as public projects have seen them move:
 * - 2026 (`layout2026`): `[null, [cid, rid], null, null, [candidate]]`,
 *   the candidate `[rcid, [text], …, 37: [[thoughts]], …, 43: citation
 *   groups]`, text marks `[cite: N]`;
 * - the Bard era (`old_format`): one final payload, `[rcid, [text],
 *   [flat sources]]`, no thoughts, no marks;
 * - `moved_indexes`: the 2026 fields, every index moved (the conversation
 *   and candidate one place on, the candidate's fields three), as a build
 *   that adds fields in front would.
 * Besides: the site's errors inside a 200 stream (1037 usage limit), and
 * the drift a real site shows (frames before the answer, a longer snapshot
 * after the end, no end at all).
 */
import type { Mode } from '../../services/shared/platforms.js';
import type { StreamVariant } from '../common/stream-variants.js';
import { replicaAnswer, type Piece, type ReplicaSource } from './answers.js';

/** This replica's stream drift variants (`#replica:<name>`), for the site-contract test. */
export const STREAM_VARIANTS = [
  {
    name: 'old_format',
    expect: 'answer',
    what: 'the Bard-era layout: one final payload, a flat source list, no thoughts, no marks',
  },
  {
    name: 'moved_indexes',
    expect: 'answer',
    what: 'every index of the 2026 layout moved (fields added in front)',
  },
  { name: 'late_events', expect: 'answer', what: 'a longer snapshot after the `e` envelope' },
  {
    name: 'early_events',
    expect: 'answer',
    what: 'a payload with only the conversation ids and bookkeeping before the answer',
  },
] as const satisfies readonly StreamVariant[];

export type StreamKind =
  (typeof STREAM_VARIANTS)[number]['name'] | 'normal' | 'unknown_frame' | 'no_end' | 'quota';

export const LATE_TEXT = ' (added after the end)';
/** The site's error codes inside a 200 stream (HanaokaYuzu/Gemini-API `exceptions.py`). */
export const USAGE_LIMIT = 1037;

/** One chunk as the site writes it: its length in UTF-16 units, then the JSON. */
export function rpcChunk(envelopes: readonly unknown[]): string {
  const inner = `\n${JSON.stringify(envelopes)}\n`;
  return `${inner.length}${inner}`;
}
export const GUARD = ")]}'\n\n";

/** A citation mark as the text carries it (2026). */
export const markOf = (p: Piece) => (typeof p === 'string' ? p : `[cite: ${p.cite.join(', ')}]`);

/** The source entry inside a citation group or the flat list: `[…, […, [[favicon, url, title]]]]`. */
const entryOf = (s: ReplicaSource) => [null, null, null, [[s.favicon, s.url, s.title]]];

interface Ids {
  cid: string;
  rid: string;
  rcid: string;
}

interface Snap {
  text: string;
  thinking: string;
  /** The marks the text holds so far, each with its sources. */
  groups: { cite: number[] }[];
}

/** A candidate in the 2026 layout, `shift` more places before each field after the id. */
function candidate2026(ids: Ids, s: Snap, sources: ReplicaSource[], shift: number): unknown[] {
  const c: unknown[] = new Array(44 + shift).fill(null);
  c[0] = ids.rcid;
  c[1 + shift] = [s.text];
  c[8 + shift] = [s.text ? 2 : 1];
  if (s.thinking) c[37 + shift] = [[s.thinking]];
  if (s.groups.length > 0)
    c[43 + shift] = s.groups.map((g) => [
      [`[cite: ${g.cite.join(', ')}]`],
      g.cite.map((n) => entryOf(sources[n - 1]!)),
    ]);
  return c;
}

/** The payload holding one snapshot, in the given layout. */
export function payloadOf(
  ids: Ids,
  s: Snap,
  sources: ReplicaSource[],
  layout: 'layout2026' | 'moved_indexes' | 'old_format',
): unknown[] {
  const head = [ids.cid, ids.rid];
  if (layout === 'old_format')
    return [
      null,
      head,
      null,
      null,
      [[ids.rcid, [s.text], sources.map((x) => [entryOf(x), x.title])]],
    ];
  if (layout === 'moved_indexes')
    return [null, null, head, null, null, [candidate2026(ids, s, sources, 3)], ['en']];
  return [null, head, null, null, [candidate2026(ids, s, sources, 0)]];
}

const wrb = (payload: unknown) => ['wrb.fr', null, JSON.stringify(payload)];
const bookkeeping = (n: number) => [
  ['di', 40 + n],
  ['af.httprm', 39 + n, `-${(1234567 + n * 7919).toString()}`, 21],
];

/** Every chunk of one answer, as the site writes them (the guard apart). */
export function chatChunks(prompt: string, mode: Mode, kind: StreamKind, ids: Ids): string[] {
  const a = replicaAnswer(prompt, mode);
  const layout =
    kind === 'old_format'
      ? 'old_format'
      : kind === 'moved_indexes'
        ? 'moved_indexes'
        : 'layout2026';
  const out: string[] = [];
  const emit = (s: Snap) => out.push(rpcChunk([wrb(payloadOf(ids, s, a.sources, layout))]));
  if (kind === 'early_events') {
    out.push(rpcChunk([wrb([null, [ids.cid, ids.rid]])]));
    out.push(rpcChunk(bookkeeping(0)));
  }
  if (kind === 'quota') {
    out.push(
      rpcChunk([
        [
          'wrb.fr',
          null,
          null,
          null,
          null,
          [
            8,
            null,
            [['type.googleapis.com/assistant.boq.bard.application.BardErrorInfo', [USAGE_LIMIT]]],
          ],
        ],
      ]),
    );
    out.push(rpcChunk([['e', 4, null, null, 180]]));
    return out;
  }
  const s: Snap = { text: '', thinking: '', groups: [] };
  if (kind === 'unknown_frame') out.push(rpcChunk([['ei', 'Xk9pQ2mZ7', [1, 2, 3]]]));
  if (kind !== 'old_format') {
    for (const t of a.thinking) {
      s.thinking += t;
      emit(s);
    }
    for (const p of a.pieces) {
      s.text += markOf(p);
      if (typeof p !== 'string') s.groups = [...s.groups, p];
      emit(s);
    }
  } else {
    // The Bard era sent the whole answer once, without marks.
    s.text = a.pieces.filter((p): p is string => typeof p === 'string').join('');
    emit(s);
  }
  if (kind === 'no_end') return out;
  out.push(rpcChunk(bookkeeping(a.pieces.length)));
  out.push(rpcChunk([['e', 4, null, null, out.join('').length]]));
  if (kind === 'late_events') emit({ ...s, text: s.text + LATE_TEXT });
  return out;
}
