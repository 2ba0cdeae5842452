/**
 * The replica's chat stream, line by line, in Yuanbao's own wire format
 * (crawler/platforms/yuanbao/web/stream.ts names the sources): SSE `data:`
 * lines, each a typed JSON frame (`think` with `content`, `text` with `msg`,
 * `searchGuid` with the `docs` list, `step` progress) or a bare word that
 * announces the next kind (`search_with_text`, `text`), ending with
 * `data: [DONE]`. Besides the answer: the site's in-stream signals (a
 * refusal, the location-verification message) and the drift a real site
 * shows from one month to the next (frames after the end, unknown frames
 * before it, a renamed field, no end at all, sources only in the
 * conversation's detail).
 */
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer, type Model, type Piece } from './answers.js';
import type { StreamVariant } from '../common/stream-variants.js';

/** This replica's stream drift variants (`#replica:<name>`), for the site-contract test. */
export const STREAM_VARIANTS = [
  { name: 'late_events', expect: 'answer', what: 'a text frame and follow-ups after [DONE]' },
  { name: 'early_events', expect: 'answer', what: 'a `meta` frame before the answer' },
  {
    name: 'renamed_field',
    expect: 'answer',
    what: 'text frames name `msg` as `content` (both public; the parser reads either)',
  },
  {
    name: 'no_sources',
    expect: 'answer',
    what: 'no searchGuid frame: the sources come from the conversation detail',
  },
] as const satisfies readonly StreamVariant[];

export type StreamKind =
  | 'normal'
  | 'no_sources'
  | 'late_events'
  | 'early_events'
  | 'renamed_field'
  | 'unknown_frame'
  | 'refusal'
  | 'location'
  | 'no_end';

export const STREAM_KINDS: readonly StreamKind[] = [
  'normal',
  'no_sources',
  'late_events',
  'early_events',
  'renamed_field',
  'unknown_frame',
  'refusal',
  'location',
  'no_end',
];

const data = (v: unknown) => `data: ${typeof v === 'string' ? v : JSON.stringify(v)}\n\n`;

export const REFUSAL = '抱歉，这个问题我暂时无法回答，我们换个话题聊聊吧。';
/** The text is the replica's; public reports describe the message, not its wording. */
export const LOCATION_MESSAGE = '为保障账号安全，请先完成位置验证后再继续对话';

export const markerOf = (p: Piece) => (typeof p === 'string' ? p : `[citation:${p.cite}]`);

/** Every frame of one answer, as the site writes them (LF line ends). */
export function chatFrames(prompt: string, mode: Mode, model: Model, kind: StreamKind): string[] {
  const a = replicaAnswer(prompt, mode, model);
  if (kind === 'location') {
    return [
      data({ type: 'verify', verifyType: 'location', msg: LOCATION_MESSAGE }),
      data('[DONE]'),
    ];
  }
  if (kind === 'refusal') {
    return [
      data('text'),
      data({ type: 'text', msg: REFUSAL, stopReason: 'sensitive' }),
      data('[DONE]'),
    ];
  }
  const out: string[] = [];
  if (kind === 'early_events') {
    out.push(data({ type: 'meta', traceId: 'replica-trace', messageId: 'replica-msg' }));
  }
  if (a.thinking.length > 0) {
    out.push(data({ type: 'step', msg: '深度思考中', index: 1 }));
    for (const t of a.thinking) out.push(data({ type: 'think', title: '思考中', content: t }));
  }
  if (a.docs.length > 0) {
    out.push(data({ type: 'step', msg: `找到 ${a.docs.length} 篇资料作为参考`, index: 2 }));
    out.push(data('search_with_text'));
    if (kind !== 'no_sources') {
      out.push(data({ type: 'searchGuid', title: '搜索结果', docs: a.docs }));
    }
  }
  if (kind === 'unknown_frame') out.push(data({ type: 'card', msg: '一张新的卡片' }));
  out.push(data('text'));
  const field = kind === 'renamed_field' ? 'content' : 'msg';
  for (const p of a.pieces) out.push(data({ type: 'text', [field]: markerOf(p) }));
  if (kind === 'no_end') return out;
  out.push(data('[DONE]'));
  if (kind === 'late_events') {
    out.push(data({ type: 'text', msg: '（页面之后追加的内容）' }));
    out.push(data({ type: 'suggestion', list: ['还想了解什么？'] }));
  }
  return out;
}

/** The conversation as `/api/user/agent/conversation/v1/detail` returns it afterwards. */
export function conversationDetail(
  id: string,
  prompt: string,
  mode: Mode,
  model: Model,
): Record<string, unknown> {
  const a = replicaAnswer(prompt, mode, model);
  return {
    id,
    convs: [
      { speaker: 'human', speechesV2: [{ content: [{ type: 'text', msg: prompt }] }] },
      {
        speaker: 'ai',
        speechesV2: [
          {
            content: [
              ...(a.thinking.length > 0 ? [{ type: 'think', content: a.thinking.join('') }] : []),
              ...(a.docs.length > 0 ? [{ type: 'searchGuid', docs: a.docs }] : []),
              { type: 'text', msg: a.pieces.map(markerOf).join('') },
            ],
          },
        ],
      },
    ],
  };
}
