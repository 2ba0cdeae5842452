/**
 * The replica's chat stream in Qwen's own wire formats
 * (crawler/platforms/qwen/web/intl.ts and domestic.ts name the sources):
 * - chat.qwen.ai 2026 (`qwen-2026`): `response.created`, the web search as
 *   a `web_search` function call then its sources in
 *   `extra.web_search_info`, the thinking as `thinking_summary` snapshots
 *   re-sent whole, the answer as `phase: answer` deltas ended by
 *   `status: finished`;
 * - chat.qwen.ai 2025 (`qwen-2025`, `#replica:old_format` or
 *   `#replica:format_2025`): `phase: think` deltas, cumulative sources on a
 *   delta named `web_search`, `data: [DONE]`;
 * - the domestic site (`tongyi-legacy`): cumulative `contents[]` snapshots
 *   with `msgStatus` / `contentType`, a refusal as `canShare: false`.
 * Besides the answer: a refusal (an error frame with DashScope's
 * `data_inspection_failed`), and the drift a real site shows from one month
 * to the next (frames after the end, bookkeeping before it, an unknown
 * phase, no end at all).
 */
import type { Mode } from '../../services/shared/platforms.js';
import type { StreamVariant } from '../common/stream-variants.js';
import { replicaAnswer, type Piece, type ReplicaAnswer } from './answers.js';

/** This replica's stream drift variants (`#replica:<name>`), for the site-contract test. */
export const STREAM_VARIANTS = [
  {
    name: 'late_events',
    expect: 'answer',
    what: 'usage, an answer delta and [DONE] after the end',
  },
  { name: 'early_events', expect: 'answer', what: 'a bookkeeping frame before the answer' },
  {
    name: 'format_2025',
    expect: 'answer',
    what: "chat.qwen.ai's 2025 frames (phase think, [DONE])",
  },
] as const satisfies readonly StreamVariant[];

export type StreamKind =
  | 'normal'
  | 'format_2025'
  | 'late_events'
  | 'early_events'
  | 'unknown_frame'
  | 'refusal'
  | 'no_end';

const data = (v: unknown) => `data: ${typeof v === 'string' ? v : JSON.stringify(v)}\n\n`;
const delta = (d: Record<string, unknown>) => data({ choices: [{ delta: d }] });

export const REFUSAL = 'Output data may contain inappropriate content.';
export const markerOf = (p: Piece) => (typeof p === 'string' ? p : `[[${p.cite}]]`);

/** A snapshot of the thinking so far, as 2026's `thinking_summary` re-sends it. */
const summary = (thought: string, status: string) =>
  delta({
    role: 'assistant',
    content: '',
    phase: 'thinking_summary',
    status,
    extra: { summary_title: { content: ['思考过程'] }, summary_thought: { content: [thought] } },
  });

function intl2026(a: ReplicaAnswer, kind: StreamKind, chatId: string): string[] {
  const out = [
    data({ 'response.created': { chat_id: chatId, parent_id: null, response_id: 'r1' } }),
  ];
  if (kind === 'early_events') out.push(data({ x_request_id: 'replica-req', usage: {} }));
  if (a.sources.length > 0) {
    for (const args of ['{"query":', '"replica"}'])
      out.push(
        delta({
          role: 'function',
          content: '',
          phase: 'web_search',
          status: 'typing',
          function_call: { name: 'web_search', arguments: args },
        }),
      );
    out.push(
      delta({
        role: 'function',
        content: '',
        phase: 'web_search',
        status: 'finished',
        extra: { web_search_info: a.sources },
      }),
    );
  }
  let thought = '';
  a.thinking.forEach((t, i) => {
    thought += t;
    out.push(summary(thought, i === a.thinking.length - 1 ? 'finished' : 'typing'));
  });
  if (kind === 'unknown_frame')
    out.push(delta({ role: 'assistant', content: '你可能还想问：电池寿命', phase: 'recommend' }));
  for (const p of a.pieces)
    out.push(delta({ role: 'assistant', content: markerOf(p), phase: 'answer', status: 'typing' }));
  if (kind === 'no_end') return out;
  out.push(delta({ role: 'assistant', content: '', phase: 'answer', status: 'finished' }));
  if (kind === 'late_events') {
    out.push(data({ choices: [], usage: { input_tokens: 12, output_tokens: 80 } }));
    out.push(delta({ role: 'assistant', content: '（页面之后追加的内容）', phase: 'answer' }));
    out.push(data('[DONE]'));
  }
  return out;
}

function intl2025(a: ReplicaAnswer): string[] {
  const out: string[] = [];
  if (a.sources.length > 0)
    for (const upTo of [2, a.sources.length])
      out.push(
        delta({
          role: 'function',
          name: 'web_search',
          content: '',
          extra: { web_search_info: a.sources.slice(0, upTo) },
        }),
      );
  for (const t of a.thinking)
    out.push(delta({ role: 'assistant', content: t, phase: 'think', status: 'typing' }));
  for (const p of a.pieces)
    out.push(delta({ role: 'assistant', content: markerOf(p), phase: 'answer', status: 'typing' }));
  out.push(data('[DONE]'));
  return out;
}

/** Every frame of one answer from chat.qwen.ai, as the site writes them (LF line ends). */
export function chatFrames(prompt: string, mode: Mode, kind: StreamKind, chatId = 'c1'): string[] {
  if (kind === 'refusal')
    return [
      data({ 'response.created': { chat_id: chatId, parent_id: null, response_id: 'r1' } }),
      data({ error: { code: 'data_inspection_failed', details: REFUSAL } }),
    ];
  const a = replicaAnswer(prompt, mode);
  return kind === 'format_2025' ? intl2025(a) : intl2026(a, kind, chatId);
}

/** The domestic site's reply: each frame the whole reply so far. */
export function domesticFrames(prompt: string, mode: Mode, kind: StreamKind): string[] {
  const a = replicaAnswer(prompt, mode);
  const frame = (contents: unknown[], status: string, canShare = true) =>
    data({
      sessionId: 's1',
      msgId: 'm1',
      parentMsgId: '0',
      msgStatus: status,
      contentType: 'text',
      contents,
      canShare,
      errorCode: '',
      errorMsg: '',
    });
  const text = (content: string) => ({ role: 'assistant', contentType: 'text', content });
  if (kind === 'refusal')
    return [frame([text('抱歉')], 'generating'), frame([text('抱歉')], 'finished', false)];
  const links =
    a.sources.length > 0
      ? [
          {
            role: 'assistant',
            contentType: 'referenceLink',
            content: JSON.stringify({
              links: a.sources.map((s) => ({ title: s.title, url: s.url, source: s.hostname })),
            }),
          },
        ]
      : [];
  const out: string[] = [];
  let thought = '';
  for (const t of a.thinking) {
    thought += t;
    out.push(frame([{ role: 'assistant', contentType: 'think', content: thought }], 'generating'));
  }
  const think = thought ? [{ role: 'assistant', contentType: 'think', content: thought }] : [];
  let answer = '';
  for (const p of a.pieces) {
    answer += markerOf(p);
    out.push(frame([...think, ...links, text(answer)], 'generating'));
  }
  if (kind === 'no_end') return out;
  out.push(frame([...think, ...links, text(answer)], 'finished'));
  out.push(data('[DONE]'));
  return out;
}
