/**
 * The replica's chat stream in ChatGPT's own wire formats
 * (crawler/platforms/chatgpt/web/stream.ts names the sources):
 * - "v1" (the current build): `event: delta_encoding` / `"v1"`, typed
 *   frames (`resume_conversation_token`, `input_message`,
 *   `message_marker`, `title_generation`, `message_stream_complete`) and
 *   `event: delta` operations `{p, o, v}` that build one message after
 *   another: the thoughts and their recap, the `web.run` search call and
 *   its tool reply with `search_result_groups`, the answer at
 *   `/message/content/parts/0` citing with private-use runs, its
 *   `content_references` patched in at the end; a run of appends leaves out
 *   the path it continues; then `data: [DONE]`;
 * - the older full-message snapshots (`#replica:old_format`): every frame
 *   the whole message so far, `【k†source】` marks with the answer's
 *   `metadata.citations`, the browser tool's `_cite_metadata`.
 * Besides the answer: the site's moderation stop (a refusal), and the drift
 * a real site shows (frames after the end, typed frames before the answer,
 * every append batched in patches, the older endpoint, no end at all).
 */
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer, topicOf, type Piece, type ReplicaAnswer } from './answers.js';
import type { StreamVariant } from '../common/stream-variants.js';

/** This replica's stream drift variants (`#replica:<name>`), for the site-contract test. */
export const STREAM_VARIANTS = [
  {
    name: 'old_format',
    expect: 'answer',
    what: 'the older full-message snapshots: 【k†source】 marks, metadata.citations, no thoughts',
  },
  { name: 'late_events', expect: 'answer', what: 'an append after message_stream_complete' },
  {
    name: 'early_events',
    expect: 'answer',
    what: 'typed frames no answer needs before the first message',
  },
  {
    name: 'batched_patches',
    expect: 'answer',
    what: 'every operation of the answer inside patch frames',
  },
  {
    name: 'old_endpoint',
    expect: 'answer',
    what: 'the page posts to the older /backend-api/conversation',
  },
] as const satisfies readonly StreamVariant[];

export type StreamKind =
  (typeof STREAM_VARIANTS)[number]['name'] | 'normal' | 'unknown_frame' | 'refusal' | 'no_end';

export const LATE_TEXT = ' (appended after the end)';
export const MODEL_SLUG = 'gpt-5';

/** One SSE event: its name (none: `message`) and its data, JSON or a literal line. */
export interface Frame {
  event?: string;
  data: unknown;
}

export const DONE: Frame = { data: '[DONE]' };

export function serialize(frames: readonly Frame[]): string[] {
  return frames.map(
    (f) =>
      (f.event ? `event: ${f.event}\n` : '') +
      `data: ${f.data === '[DONE]' ? '[DONE]' : JSON.stringify(f.data)}\n\n`,
  );
}

/** A citation as each format writes it: a private-use run naming the result, or 【k†source】. */
export const markOf = (p: Piece, older: boolean) =>
  typeof p === 'string'
    ? p
    : older
      ? `【${p.cite}†source】`
      : `\ue200cite\ue202turn0search${p.cite}\ue201`;

const delta = (data: object): Frame => ({ event: 'delta', data });

interface Ids {
  conversation: string;
  user: string;
}

function message(
  id: string,
  role: string,
  content: object,
  extra: { name?: string; recipient?: string; metadata?: object } = {},
) {
  return {
    id,
    author: { role, name: extra.name ?? null, metadata: {} },
    create_time: 1_765_000_000,
    content,
    status: 'in_progress',
    end_turn: null,
    weight: 1,
    metadata: extra.metadata ?? {},
    recipient: extra.recipient ?? 'all',
    channel: null,
  };
}

const groupsOf = (a: ReplicaAnswer) =>
  a.sources.map((s, i) => ({
    type: 'search_result_group',
    domain: new URL(s.url).hostname,
    entries: [
      {
        type: 'search_result',
        url: s.url,
        title: s.title,
        snippet: s.snippet,
        ref_id: { turn_index: 0, ref_type: 'search', ref_index: i },
        attribution: s.attribution,
      },
    ],
  }));

/** The answer's content references: one per citation run, the cited result its item. */
function referencesOf(a: ReplicaAnswer, text: string) {
  const refs: object[] = [];
  for (const p of a.pieces) {
    if (typeof p === 'string') continue;
    const s = a.sources[p.cite]!;
    const matched = markOf(p, false);
    const start = text.indexOf(matched);
    refs.push({
      matched_text: matched,
      start_idx: start,
      end_idx: start + matched.length,
      type: 'grouped_webpages',
      items: [
        {
          title: s.title,
          url: s.url,
          attribution: s.attribution,
          refs: [{ turn_index: 0, ref_type: 'search', ref_index: p.cite }],
        },
      ],
      refs: [{ turn_index: 0, ref_type: 'search', ref_index: p.cite }],
    });
  }
  return refs;
}

/** The v1 stream of one answer. */
function v1Frames(a: ReplicaAnswer, prompt: string, kind: StreamKind, ids: Ids): Frame[] {
  const cid = ids.conversation;
  const out: Frame[] = [{ event: 'delta_encoding', data: 'v1' }];
  const batched = kind === 'batched_patches';
  /** An operation, alone or (batched_patches) wrapped in a patch. */
  const op = (p: string, o: string, v: unknown) =>
    out.push(delta(batched && p !== '' ? { p: '', o: 'patch', v: [{ p, o, v }] } : { p, o, v }));
  out.push({
    data: { type: 'resume_conversation_token', token: `rct-${cid}`, conversation_id: cid },
  });
  if (kind === 'early_events')
    out.push(
      {
        data: {
          type: 'server_ste_metadata',
          metadata: { tool_invoked: false, turn_use_case: 'text' },
        },
      },
      { data: { type: 'conversation_detail_metadata', banner_info: null, conversation_id: cid } },
    );
  out.push({
    data: {
      type: 'input_message',
      input_message: message(ids.user, 'user', { content_type: 'text', parts: [prompt] }),
      conversation_id: cid,
    },
  });
  out.push({
    data: {
      type: 'message_marker',
      conversation_id: cid,
      message_id: ids.user,
      marker: 'user_visible_token',
      event: 'first',
    },
  });
  const add = (m: object) =>
    out.push(delta({ p: '', o: 'add', v: { message: m, conversation_id: cid }, c: 0 }));
  const finish = () => op('/message/status', 'replace', 'finished_successfully');
  if (kind === 'refusal') {
    add(message(`${cid}-answer`, 'assistant', { content_type: 'text', parts: [''] }));
    op('/message/content/parts/0', 'append', 'About that');
    out.push({
      data: {
        type: 'moderation',
        conversation_id: cid,
        message_id: `${cid}-answer`,
        moderation_response: { flagged: true, blocked: true },
      },
    });
    out.push({ data: { type: 'message_stream_complete', conversation_id: cid } }, DONE);
    return out;
  }
  if (a.thinking.length > 0) {
    add(
      message(`${cid}-thoughts`, 'assistant', {
        content_type: 'thoughts',
        thoughts: [],
        source_analysis_msg_id: `${cid}-sa`,
      }),
    );
    op('/message/content/thoughts', 'append', [
      { summary: '', content: '', chunks: [], finished: false },
    ]);
    a.thinking.forEach((t, i) =>
      i === 0 || batched
        ? op('/message/content/thoughts/0/content', 'append', t)
        : out.push(delta({ v: t })),
    );
    finish();
    add(
      message(`${cid}-recap`, 'assistant', {
        content_type: 'reasoning_recap',
        content: 'Thought for 3s',
      }),
    );
    finish();
  }
  if (a.sources.length > 0) {
    add(
      message(
        `${cid}-call`,
        'assistant',
        {
          content_type: 'code',
          language: 'unknown',
          text: JSON.stringify({ search_query: [{ q: topicOf(prompt) }] }),
        },
        { recipient: 'web.run' },
      ),
    );
    finish();
    add(
      message(
        `${cid}-tool`,
        'tool',
        { content_type: 'text', parts: [''] },
        { name: 'web.run', metadata: { search_result_groups: groupsOf(a) } },
      ),
    );
    finish();
  }
  if (kind === 'unknown_frame')
    out.push({ data: { type: 'canvas_card', card_id: 'card-1', conversation_id: cid } });
  add(
    message(
      `${cid}-answer`,
      'assistant',
      { content_type: 'text', parts: [''] },
      { metadata: { model_slug: MODEL_SLUG, content_references: [] } },
    ),
  );
  let text = '';
  a.pieces.forEach((p, i) => {
    const s = markOf(p, false);
    text += s;
    if (i === 0 || batched) op('/message/content/parts/0', 'append', s);
    else out.push(delta({ v: s }));
  });
  if (kind === 'no_end') return out;
  out.push(
    delta({
      p: '',
      o: 'patch',
      v: [
        { p: '/message/metadata/content_references', o: 'append', v: referencesOf(a, text) },
        { p: '/message/status', o: 'replace', v: 'finished_successfully' },
        { p: '/message/end_turn', o: 'replace', v: true },
      ],
    }),
  );
  out.push({
    data: { type: 'title_generation', title: topicOf(prompt).slice(0, 40), conversation_id: cid },
  });
  out.push({ data: { type: 'message_stream_complete', conversation_id: cid } });
  if (kind === 'late_events')
    out.push(delta({ p: '/message/content/parts/0', o: 'append', v: LATE_TEXT }));
  out.push(DONE);
  return out;
}

/** The older stream: the whole message again in every frame. */
function snapshotFrames(a: ReplicaAnswer, ids: Ids): Frame[] {
  const cid = ids.conversation;
  const out: Frame[] = [];
  const snap = (m: object) => out.push({ data: { message: m, conversation_id: cid, error: null } });
  if (a.sources.length > 0) {
    snap(
      message(
        `${cid}-call`,
        'assistant',
        { content_type: 'code', text: `search("${a.sources[0]!.title}")` },
        { recipient: 'browser' },
      ),
    );
    snap({
      ...message(
        `${cid}-tool`,
        'tool',
        { content_type: 'tether_browsing_display', result: '', summary: null },
        {
          name: 'browser',
          metadata: {
            _cite_metadata: {
              citation_format: { name: 'tether_og' },
              metadata_list: a.sources.map((s) => ({
                type: 'webpage',
                title: s.title,
                url: s.url,
                text: s.snippet,
              })),
            },
          },
        },
      ),
      status: 'finished_successfully',
    });
  }
  let text = '';
  const citations: object[] = [];
  for (const p of a.pieces) {
    const s = markOf(p, true);
    if (typeof p !== 'string') {
      const src = a.sources[p.cite]!;
      citations.push({
        start_ix: text.length,
        end_ix: text.length + s.length,
        citation_format_type: 'tether_og',
        metadata: { type: 'webpage', title: src.title, url: src.url, text: src.snippet },
      });
    }
    text += s;
    snap(
      message(
        `${cid}-answer`,
        'assistant',
        { content_type: 'text', parts: [text] },
        { metadata: { model_slug: MODEL_SLUG, citations: [...citations] } },
      ),
    );
  }
  snap({
    ...message(
      `${cid}-answer`,
      'assistant',
      { content_type: 'text', parts: [text] },
      { metadata: { model_slug: MODEL_SLUG, citations, finish_details: { type: 'stop' } } },
    ),
    status: 'finished_successfully',
    end_turn: true,
  });
  out.push(DONE);
  return out;
}

/** Every frame of one answer, in the format the variant asks. */
export function chatFrames(prompt: string, mode: Mode, kind: StreamKind, ids: Ids): Frame[] {
  const a = replicaAnswer(prompt, mode);
  if (kind === 'old_format') return snapshotFrames({ ...a, thinking: [] }, ids);
  return v1Frames(a, prompt, kind, ids);
}
