/**
 * The replica's stream frames, in the wire formats the public sources record
 * (crawler/platforms/doubao/web/stream.ts names them): the 2026 named events
 * with `patch_op` / `content_block`, the older samantha `event_type` frames,
 * and the errors Doubao sends inside a 200 stream.
 */
import type { ReplicaAnswer } from './answers.js';
import type { StreamVariant } from '../common/stream-variants.js';

/** This replica's stream drift variants (`#replica:<name>`), for the site-contract test. */
export const STREAM_VARIANTS = [
  {
    name: 'late_events',
    expect: 'answer',
    what: 'a heartbeat, a title update and a stray text patch after SSE_REPLY_END',
  },
  {
    name: 'early_events',
    expect: 'answer',
    what: 'an unknown event without content, an unknown patch_object and an extra field before the end',
  },
  {
    name: 'renamed_field',
    expect: 'witness',
    what: 'the answer text blocks name `text_block` as `textBlock`',
  },
  {
    name: 'fields_elsewhere',
    expect: 'answer',
    what: 'follow-ups in patch_object 50 ext.sp_v2, the reasoning summary in text_block.summary, icons as icon_url',
  },
] as const satisfies readonly StreamVariant[];
export type StreamVariantName = (typeof STREAM_VARIANTS)[number]['name'];

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

const text = (id: string, parent: string, t: string, extra: object = {}) => ({
  block_id: id,
  block_type: 10000,
  parent_id: parent,
  content: { text_block: { text: t, ...extra } },
});
const patch = (blocks: unknown[], patchObject = 1) => ({
  message_id: MESSAGE_ID,
  patch_op: [{ patch_object: patchObject, patch_type: 1, patch_value: { content_block: blocks } }],
});

/**
 * Text deltas of one block: the first as a block patch, then CHUNK_DELTA and
 * patches in turn; `extra` rides along in each block patch's `text_block`.
 */
function textFrames(
  id: string,
  parent: string,
  pieces: string[],
  extra: object = {},
): [string, unknown][] {
  return pieces.map((p, i) =>
    i % 2 === 0
      ? ['STREAM_CHUNK', patch([text(id, parent, p, extra)])]
      : ['CHUNK_DELTA', { text: p }],
  );
}

/** The reasoning summary the fields_elsewhere variant sends (and the driver must report). */
export const summaryOf = (a: ReplicaAnswer) => `${a.thinkingTitle}：${a.queries[0] ?? '回答'}`;

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
  variant?: StreamVariantName;
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
  const elsewhere = o.variant === 'fields_elsewhere';
  // A frame type no parser knows, carrying answer content (patch_op): drift.
  if (o.unknownFrame) f.push(['STREAM_PLAN_NOTIFY', { plan: { steps: 2 }, ...patch([]) }]);
  if (o.variant === 'early_events') {
    f.push(['MSG_TRACE_NOTIFY', { trace_id: 'trace-1', stage: 'plan' }]);
    f.push(['STREAM_CHUNK', { ...patch([], 77), server_time: 1_763_900_000 }]);
  }
  const summary = elsewhere ? { summary: summaryOf(a) } : {};
  f.push(...textFrames('think-1', 'think-root', a.reasoning, summary));
  if (a.cards.length > 0 || a.videos.length > 0) {
    const card = ({ icon, ...rest }: (typeof a.cards)[number]) =>
      elsewhere ? { ...rest, icon_url: icon } : { ...rest, icon };
    const results = [
      ...a.cards.map((c) => ({ index: c.index, text_card: card(c) })),
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
  const answer = textFrames('answer-1', '', a.text);
  if (o.variant === 'renamed_field') for (const frame of answer) renameTextBlock(frame);
  f.push(...answer);
  if (elsewhere) {
    // Cumulative: each patch repeats the list so far; the first is cut mid-way.
    const list = J(a.followUps);
    f.push(['STREAM_CHUNK', ext(list.slice(0, Math.ceil(list.length / 2)))]);
    f.push(['STREAM_CHUNK', ext(list)]);
  } else if (a.followUps.length > 0) {
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
  if (o.variant === 'late_events') {
    f.push(['SSE_HEARTBEAT', {}]);
    f.push(['MESSAGE_META_UPDATE', { title: prompt.slice(0, 10) }]);
    f.push(['STREAM_CHUNK', patch([text('answer-1', '', '多出来的字')])]);
  }
  return named(f);
}

/** patch_object 50: the message ext, its follow-ups as the `sp_v2` JSON string. */
const ext = (spV2: string) => ({
  message_id: MESSAGE_ID,
  patch_op: [{ patch_object: 50, patch_type: 1, patch_value: { ext: { sp_v2: spV2 } } }],
});

/** The renamed_field variant: a text block whose `text_block` is called `textBlock`. */
function renameTextBlock(frame: [string, unknown]): void {
  if (frame[0] !== 'STREAM_CHUNK') return;
  const value = frame[1] as ReturnType<typeof patch>;
  for (const op of value.patch_op) {
    op.patch_value.content_block = op.patch_value.content_block.map((b) => {
      const block = b as ReturnType<typeof text>;
      return { ...block, content: { textBlock: block.content.text_block } };
    });
  }
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
