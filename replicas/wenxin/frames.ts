/**
 * The replica's chat stream in Yiyan's own wire format
 * (crawler/platforms/wenxin/web/stream.ts names the sources): `event:` and
 * `data:` lines without a space after the colon, every frame a `{code, msg,
 * data}` object: `major` (the session and chat ids), `state`, `thought`
 * frames while the thinking model thinks (the last with `is_end: 1`), then
 * `message` frames with `content` deltas, the citation list on the first,
 * and `is_end: 1` at the end. The older format (`tokens_all`) sends the
 * cumulative answer with `<br>` line breaks and the sources at the frame's
 * top level. Besides the answer: a refusal, and the drift a real site shows
 * (frames after the end, new events before it, no end at all).
 */
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer, type Model, type Piece } from './answers.js';
import type { StreamVariant } from '../common/stream-variants.js';

/** This replica's stream drift variants (`#replica:<name>`), for the site-contract test. */
export const STREAM_VARIANTS = [
  {
    name: 'late_events',
    expect: 'answer',
    what: 'a message and a suggestion frame after is_end',
  },
  { name: 'early_events', expect: 'answer', what: 'ping and usage events before the answer' },
  {
    name: 'tokens_all',
    expect: 'answer',
    what: 'the older format: cumulative tokens_all with <br>, sources at the top level',
  },
] as const satisfies readonly StreamVariant[];

export type StreamKind =
  'normal' | 'late_events' | 'early_events' | 'tokens_all' | 'unknown_frame' | 'refusal' | 'no_end';

export const frame = (event: string, data: unknown, code = 0) =>
  `event:${event}\ndata:${JSON.stringify({ code, msg: '', data })}\n\n`;

export const REFUSAL = '抱歉，我还没学会回答这个问题。如果你有其他问题，我非常乐意为你提供帮助。';

export const markerOf = (p: Piece) => (typeof p === 'string' ? p : `^[${p.cite}]^`);

/** Every frame of one answer, as the site writes them. */
export function chatFrames(
  prompt: string,
  mode: Mode,
  model: Model,
  kind: StreamKind,
  ids: { sessionId: string; chatId: string },
): string[] {
  const a = replicaAnswer(prompt, mode, model);
  const out = [frame('major', { ...ids, botChatId: `${ids.chatId}-bot`, model })];
  if (kind === 'refusal') {
    out.push(frame('message', { content: REFUSAL, is_sensitive: 1, is_end: 1 }));
    return out;
  }
  if (kind === 'early_events') out.push(frame('ping', {}), frame('usage', { tokens: 42 }));
  if (a.citations.length > 0) out.push(frame('state', { state: 'searching' }));
  if (a.thinking.length > 0) {
    for (const t of a.thinking) out.push(frame('thought', { content: t, is_end: 0 }));
    out.push(frame('thought', { content: '', is_end: 1 }));
  }
  if (kind === 'unknown_frame') out.push(frame('card', { kind: 'weather', city: '北京' }));
  const texts = a.pieces.map(markerOf);
  if (kind === 'tokens_all') {
    let all = '';
    texts.forEach((t, i) => {
      all += t.replace(/\n/g, '<br>');
      const line = JSON.stringify({
        code: 0,
        msg: '',
        ...(i === 0 && a.citations.length > 0 && { searchCitations: { list: a.citations } }),
        data: { content: t.replace(/\n/g, '<br>'), tokens_all: all, sent_id: i + 1, is_end: 0 },
      });
      out.push(`data:${line}\n\n`);
    });
    out.push(
      `data:${JSON.stringify({ code: 0, msg: '', data: { content: '', tokens_all: all, is_end: 1 } })}\n\n`,
    );
    return out;
  }
  texts.forEach((t, i) =>
    out.push(
      frame('message', {
        content: t,
        is_end: 0,
        sent_id: i + 1,
        ...(i === 0 && a.citations.length > 0 && { searchCitations: { list: a.citations } }),
      }),
    ),
  );
  if (kind === 'no_end') return out;
  out.push(frame('message', { content: '', is_end: 1, tokens_all: texts.join('') }));
  if (kind === 'late_events') {
    out.push(frame('message', { content: '（页面之后追加的内容）', is_end: 0 }));
    out.push(frame('suggestion', { list: ['还想了解什么？'] }));
  }
  return out;
}
