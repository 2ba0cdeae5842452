/**
 * The replica's chat stream, frame by frame, in DeepSeek's own wire format
 * (see crawler/platforms/deepseek/web/extract.ts for the sources): 2026
 * (THINK → TOOL_SEARCH → TOOL_OPEN → RESPONSE, `[reference:N]`) or 2025
 * (THINK → SEARCH → RESPONSE, `[citation:N]`), and the site's in-stream
 * signals (a rate-limit hint, a content-filter refusal, a fragment type no
 * parser knows, a stream cut before its end marker).
 */
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer, type Piece, type ReplicaAnswer } from './answers.js';
import type { StreamVariant } from '../common/stream-variants.js';

/** This replica's stream drift variants (`#replica:<name>`), for the site-contract test. */
export const STREAM_VARIANTS = [
  {
    name: 'late_events',
    expect: 'answer',
    what: '`finish`, `update_session` and a notice after FINISHED (public captures)',
  },
  {
    name: 'early_events',
    expect: 'answer',
    what: 'an unknown event, an unplaceable usage patch and an extra frame field before FINISHED',
  },
  {
    name: 'renamed_field',
    expect: 'drift',
    what: 'the RESPONSE fragment names its type `kind`',
  },
  {
    name: 'silent_fallback',
    expect: 'answer',
    what: 'deep thinking asked and acknowledged, but no THINK fragment streamed (a quota run out)',
  },
] as const satisfies readonly StreamVariant[];

/** The mode that runs when the site silently drops deep thinking. */
export const withoutThinking = (mode: Mode): Mode =>
  mode === 'reasoning_search' ? 'search' : mode === 'reasoning' ? 'standard' : mode;
export type StreamVariantName = (typeof STREAM_VARIANTS)[number]['name'];

export type StreamKind =
  '2026' | '2025' | 'rate_limit' | 'refusal' | 'unknown_frame' | 'no_end' | StreamVariantName;

const data = (v: unknown) => `data: ${JSON.stringify(v)}\n\n`;
const event = (name: string, v: unknown) => `event: ${name}\ndata: ${JSON.stringify(v)}\n\n`;

const REFUSAL = '你好，这个问题我暂时无法回答，让我们换个话题再聊聊吧。';
const RATE_MESSAGE = '消息发送过于频繁，请稍后再试。';

interface Body {
  thinking_enabled: boolean;
  search_enabled: boolean;
}

/** The fragments' frames: the first fragment rides in the opening snapshot. */
class Writer {
  readonly out: string[] = [];
  private nextId = 1;
  private opened = false;

  constructor(
    private readonly body: Body,
    private readonly createdAt: number,
  ) {}

  id(): number {
    return this.nextId++;
  }

  fragment(f: Record<string, unknown>): void {
    if (!this.opened) {
      this.opened = true;
      this.out.push(
        data({
          v: {
            response: {
              message_id: 2,
              parent_id: 1,
              model: '',
              role: 'ASSISTANT',
              thinking_enabled: this.body.thinking_enabled,
              ban_edit: false,
              ban_regenerate: false,
              status: 'WIP',
              accumulated_token_usage: 0,
              files: [],
              inserted_at: this.createdAt,
              search_enabled: this.body.search_enabled,
              fragments: [f],
              has_pending_fragment: false,
              auto_continue: false,
            },
          },
        }),
      );
      return;
    }
    this.out.push(data({ p: 'response/fragments', o: 'APPEND', v: [f] }));
  }

  /** Text after a fragment's first piece: the first with its path, then bare increments. */
  text(pieces: string[]): void {
    pieces.forEach((t, i) =>
      this.out.push(
        data(i === 0 ? { p: 'response/fragments/-1/content', o: 'APPEND', v: t } : { v: t }),
      ),
    );
  }
}

function textOf(pieces: Piece[], marker: (cite: number) => string): string[] {
  return pieces.map((p) => (typeof p === 'string' ? p : marker(p.cite)));
}

function think(w: Writer, a: ReplicaAnswer): void {
  if (a.thinking.length === 0) return;
  const [first, ...rest] = a.thinking;
  w.fragment({
    id: w.id(),
    type: 'THINK',
    content: first,
    elapsed_secs: null,
    references: [],
    stage_id: 1,
  });
  w.text(rest);
  w.out.push(data({ p: 'response/fragments/-1/elapsed_secs', o: 'SET', v: 3.2 }));
}

function frames2026(w: Writer, a: ReplicaAnswer, unknownFrame: boolean): void {
  think(w, a);
  const openedIds = new Map<number, number>();
  if (a.results.length > 0) {
    w.fragment({
      id: w.id(),
      type: 'TOOL_SEARCH',
      status: 'WIP',
      content: null,
      queries: a.queries.map((query) => ({ query })),
      results: [],
      stage_id: 1,
    });
    w.out.push(
      data({
        p: 'response/fragments/-1/results',
        o: 'SET',
        v: a.results.map((r) => ({ ...r, query_indexes: [0] })),
      }),
    );
    w.out.push(data({ p: 'response/fragments/-1/status', v: 'FINISHED' }));
    for (const at of a.opened) {
      const id = w.id();
      openedIds.set(at, id);
      w.fragment({ id, type: 'TOOL_OPEN', status: 'FINISHED', result: a.results[at], stage_id: 1 });
    }
  }
  if (unknownFrame) {
    w.fragment({ id: w.id(), type: 'TOOL_PYTHON', status: 'WIP', code: 'print(1)', stage_id: 1 });
  }
  const [first, ...rest] = a.pieces;
  w.fragment({ id: w.id(), type: 'RESPONSE', content: first, references: [], stage_id: 2 });
  const refs: { id: number; type: 'TOOL_OPEN' }[] = [];
  let pending: string[] = [];
  const flush = () => {
    w.text(pending);
    pending = [];
  };
  for (const p of rest) {
    if (typeof p === 'string') {
      pending.push(p);
      continue;
    }
    flush();
    const id = openedIds.get(p.cite)!;
    refs.push({ id, type: 'TOOL_OPEN' });
    w.out.push(
      data({
        p: 'response/fragments/-1',
        o: 'BATCH',
        v: [
          { p: 'content', o: 'APPEND', v: `[reference:${id}]` },
          { p: 'references', v: [...refs] },
        ],
      }),
    );
  }
  flush();
}

function frames2025(w: Writer, a: ReplicaAnswer): void {
  think(w, a);
  if (a.results.length > 0) {
    w.fragment({
      id: w.id(),
      type: 'SEARCH',
      content: '',
      queries: a.queries.map((query) => ({ query })),
      results: [],
      stage_id: 1,
    });
    w.out.push(
      data({
        p: 'response/fragments/-1/results',
        o: 'SET',
        v: a.results.map((r, i) => ({ ...r, cite_index: i + 1, query_indexes: [0] })),
      }),
    );
  }
  const [first, ...rest] = textOf(a.pieces, (cite) => `[citation:${cite + 1}]`);
  w.fragment({ id: w.id(), type: 'RESPONSE', content: first, references: [], stage_id: 2 });
  w.text(rest);
}

/** Every frame of one answer, as the site writes them (LF line ends). */
export function chatFrames(
  prompt: string,
  mode: Mode,
  body: Body,
  kind: StreamKind,
  siteUrl: string,
): string[] {
  const a = replicaAnswer(
    prompt,
    kind === 'silent_fallback' ? withoutThinking(mode) : mode,
    siteUrl,
  );
  const w = new Writer(body, 1_763_900_000);
  const head = [
    event('ready', { request_message_id: 1, response_message_id: 2, model_type: 'default' }),
    event('update_session', { updated_at: 1_763_900_000.5 }),
  ];
  if (kind === 'rate_limit') {
    return [
      ...head,
      event('hint', {
        type: 'error',
        content: RATE_MESSAGE,
        clear_response: true,
        finish_reason: 'rate_limit_reached',
      }),
      event('close', { click_behavior: 'none', auto_resume: false }),
    ];
  }
  if (kind === 'refusal') {
    w.fragment({ id: w.id(), type: 'RESPONSE', content: '关于这个', references: [], stage_id: 1 });
    w.out.push(
      data({
        p: 'response',
        o: 'BATCH',
        v: [
          { p: 'fragments', o: 'SET', v: [{ id: 9, type: 'TEMPLATE_RESPONSE', content: REFUSAL }] },
          { p: 'status', v: 'CONTENT_FILTER' },
        ],
      }),
    );
    return [...head, ...w.out, event('close', { click_behavior: 'none', auto_resume: false })];
  }
  if (kind === '2025') frames2025(w, a);
  else frames2026(w, a, kind === 'unknown_frame');
  if (kind === 'no_end') return [...head, ...w.out];
  if (kind === 'renamed_field') renameType(w.out);
  return [
    ...head,
    ...w.out,
    data({
      p: 'response',
      o: 'BATCH',
      v: [
        { p: 'accumulated_token_usage', v: 321 },
        { p: 'quasi_status', v: 'FINISHED' },
      ],
    }),
    ...(kind === 'early_events' ? earlyEvents() : []),
    data({ p: 'response/status', o: 'SET', v: 'FINISHED' }),
    ...(kind === 'late_events' ? lateEvents() : []),
    event('title', { content: a.title }),
    event('close', { click_behavior: 'none', auto_resume: false }),
  ];
}

/** What public captures show after FINISHED: `finish`, the session's time again, a notice. */
function lateEvents(): string[] {
  return [
    event('finish', {}),
    event('update_session', { updated_at: 1_763_900_001.25 }),
    event('notice', { content: '回答已完成' }),
  ];
}

/** Bookkeeping a newer build might send before FINISHED: nothing the answer holds. */
function earlyEvents(): string[] {
  return [
    event('keep_alive', { t: 1_763_900_000.75 }),
    data({ p: 'response/usage/prompt_tokens', v: 12 }),
    data({ p: 'response/accumulated_token_usage', o: 'SET', v: 322, ts: 1_763_900_000.8 }),
  ];
}

/** The RESPONSE fragment's `type` renamed `kind`: content no known format places. */
function renameType(out: string[]): void {
  const at = out.findIndex((f) => f.includes('"type":"RESPONSE"'));
  if (at >= 0) out[at] = out[at]!.replace('"type":"RESPONSE"', '"kind":"RESPONSE"');
}
