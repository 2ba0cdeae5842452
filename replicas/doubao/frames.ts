/**
 * The replica's stream frames, in the wire formats the public sources record
 * (crawler/platforms/doubao/web/stream.ts names them): the 2026 named events
 * with `patch_op` / `content_block`, the older samantha `event_type` frames,
 * and the errors Doubao sends inside a 200 stream.
 */
import type { ReplicaAnswer } from './answers.js';

const J = JSON.stringify;
const MESSAGE_ID = '30241246944760322';

export interface Conversation {
  conversationId: string;
  sectionId: string;
  localConversationId: string;
}

/** Numbers the frames as the site does (`id: n`) and adds the blank line. */
function named(frames: [string, unknown][]): string[] {
  return frames.map(([event, data], i) => `id: ${i}\nevent: ${event}\ndata: ${J(data)}\n\n`);
}

const text = (id: string, parent: string, t: string) => ({
  block_id: id,
  block_type: 10000,
  parent_id: parent,
  content: { text_block: { text: t } },
});
const patch = (blocks: unknown[], patchObject = 1) => ({
  message_id: MESSAGE_ID,
  patch_op: [{ patch_object: patchObject, patch_type: 1, patch_value: { content_block: blocks } }],
});

/** Text deltas of one block: the first as a block patch, then CHUNK_DELTA and patches in turn. */
function textFrames(id: string, parent: string, pieces: string[]): [string, unknown][] {
  return pieces.map((p, i) =>
    i % 2 === 0 ? ['STREAM_CHUNK', patch([text(id, parent, p)])] : ['CHUNK_DELTA', { text: p }],
  );
}

function ack(c: Conversation): [string, unknown] {
  return [
    'SSE_ACK',
    {
      ack_client_meta: {
        conversation_id: c.conversationId,
        local_conversation_id: c.localConversationId,
        section_id: c.sectionId,
      },
    },
  ];
}

export interface Options2026 {
  /** Inserts a frame type no parser knows (the unknown_frame variant). */
  unknownFrame?: boolean;
  /** Leaves out SSE_REPLY_END (a stream that stops without its end marker). */
  noEnd?: boolean;
  /** Ends the message (end_type 1) but not the stream (no end_type 3). */
  noStreamEnd?: boolean;
}

export function frames2026(
  prompt: string,
  a: ReplicaAnswer,
  c: Conversation,
  o: Options2026 = {},
): string[] {
  const think = a.reasoning.length > 0;
  const f: [string, unknown][] = [
    ack(c),
    [
      'FULL_MSG_NOTIFY',
      {
        message: {
          message_id: '30241246944760066',
          conversation_id: c.conversationId,
          user_type: 1,
          content_type: 9999,
        },
        content: { content_block: [text('query-1', '', prompt)] },
      },
    ],
    [
      'STREAM_MSG_NOTIFY',
      {
        meta: {
          message_id: MESSAGE_ID,
          conversation_id: c.conversationId,
          section_id: c.sectionId,
          user_type: 2,
        },
        content: {
          content_block: think
            ? [
                {
                  block_id: 'think-root',
                  block_type: 10040,
                  parent_id: '',
                  content: { thinking_block: { streaming_title: '思考中', finish_title: '' } },
                },
              ]
            : [],
        },
      },
    ],
  ];
  if (o.unknownFrame) f.push(['STREAM_PLAN_NOTIFY', { plan: { steps: 2 } }]);
  f.push(...textFrames('think-1', 'think-root', a.reasoning));
  if (a.cards.length > 0 || a.videos.length > 0) {
    const results = [
      ...a.cards.map((card) => ({ index: card.index, text_card: card })),
      ...a.videos.map((v) => ({ index: v.index, video_card: v })),
    ];
    const block = {
      block_id: 'search-1',
      block_type: 10025,
      parent_id: think ? 'think-root' : '',
      content: {
        search_query_result_block: {
          queries: a.queries,
          summary: `找到 ${results.length} 篇资料`,
          results,
        },
      },
    };
    f.push(['STREAM_CHUNK', patch([block])]);
  }
  if (think) {
    const root = {
      block_id: 'think-root',
      block_type: 10040,
      parent_id: '',
      content: { thinking_block: { finish_title: a.thinkingTitle } },
    };
    f.push(['STREAM_CHUNK', patch([root])]);
  }
  f.push(...textFrames('answer-1', '', a.text));
  if (a.followUps.length > 0) {
    const suggest = {
      block_id: 'suggest-1',
      block_type: 2002,
      parent_id: '',
      content: { suggest_block: { suggests: a.followUps } },
    };
    f.push(['STREAM_CHUNK', patch([suggest])]);
  }
  f.push(['STREAM_CHUNK', patch([], 50)]);
  if (!o.noEnd) {
    f.push(['SSE_REPLY_END', { end_type: 1, msg_finish_attr: { msgid: MESSAGE_ID } }]);
    if (!o.noStreamEnd) f.push(['SSE_REPLY_END', { end_type: 3 }]);
  }
  return named(f);
}

export function streamError(
  c: Conversation,
  code: number,
  message: string,
  decision?: object,
): string[] {
  const error: Record<string, unknown> = { error_code: code, error_msg: message };
  if (decision) error.extra = { decision: J(decision) };
  const out = named([ack(c), ['STREAM_ERROR', error]]);
  out.push(
    `event: gateway-error\ndata: ${J({ code: 'Internal', message: `ErrorX:code=${code} stable=true message=[${message}] [biz error]` })}\n\n`,
  );
  return out;
}

/** The older samantha format: text deltas and follow-ups (it carries no search blocks). */
export function framesSamantha(a: ReplicaAnswer, c: Conversation): string[] {
  const frame = (type: number, data: unknown, i: number) =>
    `data: ${J({ event_data: J(data), event_id: String(i), event_type: type })}\n\n`;
  const message = (contentType: number, content: unknown, extra: object = {}) => ({
    message: { content_type: contentType, content: J(content), id: 'd0daaa17-8123' },
    message_id: MESSAGE_ID,
    conversation_id: c.conversationId,
    section_id: c.sectionId,
    is_delta: true,
    status: 4,
    ...extra,
  });
  const out = [
    frame(2002, { message_id: '30241246944760066', conversation_id: c.conversationId }, 0),
    frame(2010, { type: 'seed_intention', seed_intention: { intention: 'seed_main' } }, 1),
    ...a.text.map((t) => message(2001, { text: t })),
    message(2001, {}, { status: 1, is_finish: true, has_suggest: a.followUps.length > 0 }),
    ...a.followUps.map((q) => message(2002, { suggest: q, suggestions: [q] })),
  ].map((x, i) => (typeof x === 'string' ? x : frame(2001, x, i)));
  out.push(frame(2003, {}, out.length));
  return out;
}
