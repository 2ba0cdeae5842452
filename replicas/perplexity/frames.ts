/**
 * The replica's answer stream in Perplexity's own wire format
 * (crawler/platforms/perplexity/web/stream.ts names the sources):
 * `event: message` frames, each a JSON object with the thread's ids, the
 * model, a status and `blocks[]`; in the current format each block a
 * `diff_block` whose JSON patches grow its value (the plan's goals, the web
 * results, the markdown's chunks), in the older one every block repeated
 * whole in each frame. The last frame says `final_sse_message: true`, then
 * `event: end_of_stream`. Besides the answer: the site's in-stream limit
 * (`status: "FAILED"`), a refusal, and the drift a real site shows (a chunk
 * a later patch rewrites, frames after the end, a frame without blocks
 * before the answer, the older format, no end at all).
 */
import { randomUUID } from 'node:crypto';
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer, type Piece } from './answers.js';
import { MODEL_IDS } from './expected.js';
import type { StreamVariant } from '../common/stream-variants.js';

/** This replica's stream drift variants (`#replica:<name>`), for the site-contract test. */
export const STREAM_VARIANTS = [
  {
    name: 'old_format',
    expect: 'answer',
    what: 'the 2024 format: every block whole in each frame, `final: true`',
  },
  {
    name: 'rewritten_chunk',
    expect: 'answer',
    what: 'a draft chunk that a later `replace` patch rewrites',
  },
  { name: 'late_events', expect: 'answer', what: 'a chunk patch after the final frame' },
  { name: 'early_events', expect: 'answer', what: 'a frame without blocks before the answer' },
] as const satisfies readonly StreamVariant[];

export type StreamKind =
  | (typeof STREAM_VARIANTS)[number]['name']
  | 'normal'
  | 'unknown_frame'
  | 'refusal'
  | 'quota'
  | 'no_end';

export const REFUSAL = "I can't help with that request.";
export const DRAFT_CHUNK = '(a draft the site rewrites)';
export const LATE_TEXT = ' (appended after the end)';
export const QUOTA_MESSAGE = 'You have reached your limit of Pro searches for today.';

const message = (v: unknown) => `event: message\ndata: ${JSON.stringify(v)}\n\n`;
export const END_OF_STREAM = 'event: end_of_stream\ndata: {}\n\n';
export const markOf = (p: Piece) => (typeof p === 'string' ? p : `[${p.cite}]`);

const diff = (usage: string, field: string, patches: unknown[]) => ({
  intended_usage: usage,
  diff_block: { field, patches },
});

/** Every frame of one answer, as the site writes them (LF line ends). */
export function chatFrames(prompt: string, mode: Mode, kind: StreamKind): string[] {
  const a = replicaAnswer(prompt, mode);
  const head = {
    backend_uuid: randomUUID(),
    context_uuid: randomUUID(),
    display_model: a.goals.length > 0 ? MODEL_IDS.on : MODEL_IDS.off,
    mode: 'COPILOT',
  };
  const frame = (blocks: unknown[], status = 'PENDING', extra: object = {}) =>
    message({ ...head, status, final_sse_message: false, blocks, ...extra });
  const out: string[] = [];
  if (kind === 'early_events') out.push(message({ ...head, status: 'PENDING' }));
  if (kind === 'quota')
    return [
      message({ ...head, status: 'FAILED', error_code: 'QUERY_LIMIT', text: QUOTA_MESSAGE }),
      END_OF_STREAM,
    ];
  if (kind === 'refusal')
    return [message({ ...head, status: 'BLOCKED', text: REFUSAL, blocks: [] }), END_OF_STREAM];
  if (kind === 'old_format') return [...olderFrames(a, head), END_OF_STREAM];

  out.push(
    frame([
      diff('pro_search_steps', 'plan_block', [
        { op: 'replace', path: '', value: { progress: 'IN_PROGRESS', goals: [] } },
      ]),
    ]),
  );
  a.goals.forEach((g, i) => {
    const half = g.slice(0, Math.ceil(g.length / 2));
    out.push(
      frame([
        diff('pro_search_steps', 'plan_block', [
          {
            op: 'add',
            path: '/goals/-',
            value: { id: `goal-${i}`, description: half, final: false },
          },
        ]),
      ]),
    );
    // The goal's text grows by replacement: the patched value, not a sum of values.
    out.push(
      frame([
        diff('pro_search_steps', 'plan_block', [
          { op: 'replace', path: `/goals/${i}/description`, value: g },
          { op: 'replace', path: `/goals/${i}/final`, value: true },
        ]),
      ]),
    );
  });
  if (a.results.length > 0)
    out.push(
      frame([
        diff('sources_answer_mode', 'web_result_block', [
          { op: 'replace', path: '', value: { progress: 'DONE', web_results: [] } },
          ...a.results.map((r) => ({ op: 'add', path: '/web_results/-', value: r })),
        ]),
      ]),
    );
  if (kind === 'unknown_frame')
    out.push(
      frame([
        diff('knowledge_cards', 'entity_card_block', [
          { op: 'add', path: '/cards', value: [{ id: 'card-1' }] },
        ]),
      ]),
    );
  out.push(
    frame([
      diff('ask_text', 'markdown_block', [
        { op: 'replace', path: '', value: { progress: 'IN_PROGRESS', chunks: [], answer: '' } },
      ]),
    ]),
  );
  a.pieces.forEach((p, i) => {
    if (kind === 'rewritten_chunk' && i === 1) {
      out.push(
        frame([
          diff('ask_text', 'markdown_block', [
            { op: 'add', path: '/chunks/-', value: DRAFT_CHUNK },
          ]),
        ]),
      );
      out.push(
        frame([
          diff('ask_text', 'markdown_block', [
            { op: 'replace', path: `/chunks/${i}`, value: markOf(p) },
          ]),
        ]),
      );
      return;
    }
    out.push(
      frame([
        diff('ask_text', 'markdown_block', [{ op: 'add', path: '/chunks/-', value: markOf(p) }]),
      ]),
    );
  });
  if (kind === 'no_end') return out;
  out.push(
    frame(
      [
        diff('pro_search_steps', 'plan_block', [
          { op: 'replace', path: '/progress', value: 'DONE' },
        ]),
        diff('ask_text', 'markdown_block', [{ op: 'replace', path: '/progress', value: 'DONE' }]),
      ],
      'COMPLETED',
      { final_sse_message: true, text_completed: true, related_queries: a.related },
    ),
  );
  if (kind === 'late_events')
    out.push(
      frame([
        diff('ask_text', 'markdown_block', [{ op: 'add', path: '/chunks/-', value: LATE_TEXT }]),
      ]),
    );
  out.push(END_OF_STREAM);
  return out;
}

/** The 2024 format: each frame repeats every block whole, growing; `final: true` ends it. */
function olderFrames(a: ReturnType<typeof replicaAnswer>, head: object): string[] {
  const out: string[] = [];
  const blocks = (goals: string[], text: string[], done: boolean) => [
    {
      intended_usage: 'pro_search_steps',
      plan_block: {
        progress: done ? 'DONE' : 'IN_PROGRESS',
        goals: goals.map((description, i) => ({ id: `goal-${i}`, description, final: true })),
      },
    },
    ...(a.results.length > 0
      ? [
          {
            intended_usage: 'web_results',
            web_result_block: { progress: 'DONE', web_results: a.results },
          },
        ]
      : []),
    {
      intended_usage: 'ask_text',
      markdown_block: {
        progress: done ? 'DONE' : 'IN_PROGRESS',
        chunks: text,
        answer: text.join(''),
      },
    },
  ];
  const frame = (goals: string[], text: string[], done: boolean) =>
    message({
      ...head,
      status: done ? 'completed' : 'pending',
      final: done,
      blocks: blocks(goals, text, done),
      ...(done ? { related_queries: a.related } : {}),
    });
  a.goals.forEach((_g, i) => out.push(frame(a.goals.slice(0, i + 1), [], false)));
  const text = a.pieces.map(markOf);
  text.forEach((_t, i) => out.push(frame(a.goals, text.slice(0, i + 1), false)));
  out.push(frame(a.goals, text, true));
  return out;
}
