/**
 * The replica's chat stream in ChatGLM's own wire format
 * (crawler/platforms/zhipu/web/stream.ts names the sources): SSE `data:`
 * lines, each a JSON frame whose `parts[].content[]` repeats the WHOLE
 * answer so far (a cumulative snapshot, never a delta), ending with the
 * frame whose `status` is `finish`. Besides the answer: the site's content
 * stop (`status: "intervene"`), and the drift a real site shows (a snapshot
 * that shrinks when the site rewrites its draft, a part replaced by
 * another, frames after the end, a frame without parts before the answer,
 * the older 2024 format, no end at all).
 */
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer, type Piece, type ReplicaSource } from './answers.js';
import type { StreamVariant } from '../common/stream-variants.js';

/** This replica's stream drift variants (`#replica:<name>`), for the site-contract test. */
export const STREAM_VARIANTS = [
  {
    name: 'old_format',
    expect: 'answer',
    what: 'the 2024 format: quote_result sources, 【N†来源】 marks, no logic_id, no thinking',
  },
  {
    name: 'shrinking_snapshot',
    expect: 'answer',
    what: 'a snapshot with a draft tail that the next, shorter snapshot drops',
  },
  {
    name: 'replaced_part',
    expect: 'answer',
    what: 'a draft text part that later snapshots replace by another part',
  },
  { name: 'late_events', expect: 'answer', what: 'a longer snapshot after the finish frame' },
  { name: 'early_events', expect: 'answer', what: 'a frame without parts before the answer' },
] as const satisfies readonly StreamVariant[];

export type StreamKind =
  (typeof STREAM_VARIANTS)[number]['name'] | 'normal' | 'unknown_frame' | 'refusal' | 'no_end';

export const REFUSAL = '这个问题我暂时无法回答，换个话题试试吧。';
export const DRAFT_TAIL = '（草稿：这一段稍后会被改写）';
export const DRAFT_PART = '正在组织语言……';
export const LATE_TEXT = '（结束之后追加的内容）';

const data = (v: unknown) => `data: ${JSON.stringify(v)}\n\n`;

/** A citation mark as each format writes it. */
export const markOf = (p: Piece, older: boolean) =>
  typeof p === 'string' ? p : older ? `【${p.cite}†来源】` : `【turn0search${p.cite}】`;

interface State {
  thinking: string;
  sources: ReplicaSource[];
  text: string;
  /** A draft part shown before the answer's own (replaced_part). */
  draft?: string;
  /** An item of a type no format names, carrying no text (unknown_frame). */
  card?: boolean;
  done: boolean;
}

/** The parts of one snapshot, as the format writes them. */
function partsOf(s: State, older: boolean): unknown[] {
  const status = s.done ? 'finish' : 'init';
  const logic = (id: string) => (older ? {} : { logic_id: id });
  const parts: unknown[] = [];
  if (s.thinking && !older)
    parts.push({
      id: 'part-think',
      ...logic('l-think'),
      role: 'assistant',
      content: [{ type: 'think', think: s.thinking, status }],
      model: 'glm-4.6',
      status,
      meta_data: {},
    });
  if (s.sources.length > 0)
    parts.push(
      older
        ? {
            id: 'part-quote',
            role: 'tool',
            content: [{ type: 'quote_result', status: 'finish' }],
            status: 'finish',
            meta_data: {
              metadata_list: s.sources.map(({ title, url, site_name, text }) => ({
                title,
                url,
                site_name,
                text,
              })),
            },
          }
        : {
            id: 'part-search',
            ...logic('l-search'),
            role: 'tool',
            content: [{ type: 'tool_result', status: 'finish' }],
            status: 'finish',
            meta_data: { tool_result_extra: { search_results: s.sources } },
          },
    );
  if (s.card)
    parts.push({
      id: 'part-card',
      ...logic('l-card'),
      role: 'assistant',
      content: [{ type: 'mind_map', data_id: 'card-1', status: 'finish' }],
      status: 'finish',
      meta_data: {},
    });
  if (s.draft !== undefined)
    parts.push({
      id: 'part-draft',
      ...logic('l-draft'),
      role: 'assistant',
      content: [{ type: 'text', text: s.draft, status: 'init' }],
      status: 'init',
      meta_data: {},
    });
  if (s.text)
    parts.push({
      id: 'part-text',
      ...logic('l-text'),
      role: 'assistant',
      content: [{ type: 'text', text: s.text, status }],
      model: 'glm-4.6',
      status,
      meta_data: {},
    });
  return parts;
}

/** Every frame of one answer, as the site writes them (LF line ends). */
export function chatFrames(
  prompt: string,
  mode: Mode,
  kind: StreamKind,
  conversationId: string,
): string[] {
  const a = replicaAnswer(prompt, mode);
  const older = kind === 'old_format';
  const head = { id: `msg-${conversationId.slice(0, 8)}`, conversation_id: conversationId };
  const out: string[] = [];
  const s: State = { thinking: '', sources: [], text: '', done: false };
  const snap = (state: State, status = 'init', extra: object = {}) =>
    out.push(
      data({
        ...head,
        assistant_id: '65940acff94777010aa6b796',
        parts: partsOf(state, older),
        status,
        last_error: {},
        ...extra,
      }),
    );
  if (kind === 'early_events') out.push(data({ ...head, event_type: 'heartbeat' }));
  if (kind === 'refusal') {
    s.text = '关于这个';
    snap(s);
    snap(s, 'intervene', { last_error: { intervene_text: REFUSAL } });
    return out;
  }
  if (kind === 'unknown_frame') s.card = true;
  if (!older)
    for (const t of a.thinking) {
      s.thinking += t;
      snap(s);
    }
  if (kind === 'replaced_part') {
    s.draft = DRAFT_PART;
    snap(s);
  }
  if (a.sources.length > 0) {
    s.sources = a.sources;
    snap(s);
  }
  const half = Math.floor(a.pieces.length / 2);
  a.pieces.forEach((p, i) => {
    if (i === 1) delete s.draft;
    s.text += markOf(p, older);
    snap(s);
    // The site shows a draft tail, then rewrites it: the next snapshot is shorter.
    if (kind === 'shrinking_snapshot' && i === half) snap({ ...s, text: s.text + DRAFT_TAIL });
  });
  if (kind === 'no_end') return out;
  s.done = true;
  snap(s, 'finish');
  if (kind === 'late_events') snap({ ...s, text: s.text + LATE_TEXT }, 'finish');
  return out;
}
