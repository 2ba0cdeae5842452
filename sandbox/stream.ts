/**
 * The sandbox's wire format, pure: an Answer as an OpenAI Chat Completions
 * non-streaming completion, or as the byte pieces of an SSE stream that the
 * server writes one by one (the chat page reads the same stream).
 *
 * Each part is one vendor's documented shape (see /work/shared/platforms.md):
 * `reasoning_content` deltas with `content: null` first (DeepSeek), then
 * `content` deltas; the sources as a top-level `search_results[]` with
 * `index`, `title`, `url` (Qianfan; `site_name` and `icon` as DashScope names
 * them), cited with `[n]` markers (Perplexity, DashScope), and each cited span
 * also as an OpenAI `url_citation` annotation on an annotation-only delta
 * (OpenAI's search models); `related_questions` and `images` (Perplexity);
 * a refusal ends with `finish_reason: "content_filter"` (OpenAI, Kimi); the
 * finish chunk carries `usage` (DeepSeek), then `data: [DONE]`. One field is
 * the sandbox's own: `reasoning_summary`, so that a summary other than the
 * reasoning's first sentence survives the trip.
 *
 * The stream is deliberately awkward, like real vendors: small deltas, a
 * `: keep-alive` comment, some writes cut in the middle of a multi-byte UTF-8
 * character or between the two newlines that end an event, and the finish
 * chunk and the sentinel in one write.
 */
import type { Answer } from '../services/shared/contracts/answer.js';

export interface WireOptions {
  id: string;
  created: number;
  model: string;
  /** `stop` (the default), or `content_filter` for a refusal. */
  finishReason?: 'stop' | 'content_filter';
}

export interface UrlCitation {
  type: 'url_citation';
  url_citation: { url: string; title: string; start_index: number; end_index: number };
}

/**
 * One `url_citation` per `[n]` marker of a cited reference. Offsets count
 * Unicode code points of the message text (as Python-side vendors do); the end
 * is exclusive.
 */
export function annotationsFor(answer: Answer): UrlCitation[] {
  const cited = new Map(answer.citationList.map((r) => [r.index, r]));
  const out: UrlCitation[] = [];
  const text = answer.answerContent;
  for (const m of text.matchAll(/\[(\d{1,3})\]/g)) {
    const ref = cited.get(Number(m[1]));
    if (!ref || m.index === undefined) continue;
    const start = Array.from(text.slice(0, m.index)).length;
    out.push({
      type: 'url_citation',
      url_citation: {
        url: ref.url,
        title: ref.title,
        start_index: start,
        end_index: start + Array.from(m[0]).length,
      },
    });
  }
  return out;
}

/** The vendor-extra top-level fields (sources, follow-ups, images, reasoning summary). */
export function extrasFor(answer: Answer): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  if (answer.referenceList.length > 0) {
    extras.search_results = answer.referenceList.map((r) => ({
      title: r.title,
      url: r.url,
      site_name: r.site,
      icon: r.icon,
      index: r.index,
    }));
  }
  if (answer.recommendedQuestions.length > 0) {
    extras.related_questions = [...answer.recommendedQuestions];
  }
  const images = answer.mediaContent.filter((m) => m.type === 'image');
  if (images.length > 0) {
    extras.images = images.map((m) =>
      m.title === undefined ? { url: m.url } : { url: m.url, title: m.title },
    );
  }
  if (answer.reasoningProcess) extras.reasoning_summary = answer.reasoningProcess.summary;
  return extras;
}

/** Token counts as vendors report them, estimated at four characters a token. */
export function usageFor(answer: Answer): Record<string, unknown> {
  const tokens = (text: string) => Math.ceil(Array.from(text).length / 4);
  const reasoningTokens = tokens(answer.reasoningProcess?.content ?? '');
  const completionTokens = tokens(answer.answerContent) + reasoningTokens;
  return {
    prompt_tokens: 12,
    completion_tokens: completionTokens,
    total_tokens: 12 + completionTokens,
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
}

/** The non-streaming `chat.completion` body for an answer. */
export function completionBody(answer: Answer, o: WireOptions): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: answer.answerContent };
  if (answer.reasoningProcess) message.reasoning_content = answer.reasoningProcess.content;
  const annotations = annotationsFor(answer);
  if (annotations.length > 0) message.annotations = annotations;
  return {
    id: o.id,
    object: 'chat.completion',
    created: o.created,
    model: o.model,
    choices: [{ index: 0, message, finish_reason: o.finishReason ?? 'stop', logprobs: null }],
    ...extrasFor(answer),
    usage: usageFor(answer),
  };
}

/** Splits text into small pieces of whole code points (sizes cycle 3..17). */
export function splitText(text: string, seed = 0): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  let i = 0;
  let k = seed;
  while (i < chars.length) {
    const size = 3 + ((k * 7) % 15);
    out.push(chars.slice(i, i + size).join(''));
    i += size;
    k++;
  }
  return out;
}

/** The chunk objects of the stream, in order (without the `[DONE]` sentinel). */
export function streamChunks(answer: Answer, o: WireOptions): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra = {}) => ({
    id: o.id,
    object: 'chat.completion.chunk',
    created: o.created,
    model: o.model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...extra,
  });
  const chunks: Record<string, unknown>[] = [chunk({ role: 'assistant', content: '' })];
  if (answer.reasoningProcess) {
    for (const piece of splitText(answer.reasoningProcess.content, 1)) {
      chunks.push(chunk({ reasoning_content: piece, content: null }));
    }
  }
  for (const piece of splitText(answer.answerContent, 2)) chunks.push(chunk({ content: piece }));
  const annotations = annotationsFor(answer);
  if (annotations.length > 0) chunks.push(chunk({ annotations }));
  const extras = extrasFor(answer);
  if (Object.keys(extras).length > 0) chunks.push(chunk({}, null, extras));
  chunks.push(chunk({}, o.finishReason ?? 'stop', { usage: usageFor(answer) }));
  return chunks;
}

const encoder = new TextEncoder();
const KEEP_ALIVE = ': keep-alive\n\n';

/** Index just after the first lead byte of a multi-byte UTF-8 character, or -1. */
function midCharacter(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0xc0) return i + 1;
  return -1;
}

/**
 * The stream as the byte pieces the server writes one at a time. Joined, they
 * are exactly the SSE text of `streamChunks` plus the comment and `[DONE]`.
 */
export function streamPieces(answer: Answer, o: WireOptions): Uint8Array[] {
  const chunks = streamChunks(answer, o);
  const pieces: Uint8Array[] = [];
  const keepAliveAt = answer.reasoningProcess
    ? 1 + splitText(answer.reasoningProcess.content, 1).length
    : 1;
  chunks.forEach((c, k) => {
    if (k === keepAliveAt) pieces.push(encoder.encode(KEEP_ALIVE));
    const bytes = encoder.encode(`data: ${JSON.stringify(c)}\n\n`);
    const mid = k % 2 === 1 ? midCharacter(bytes) : -1;
    if (k === chunks.length - 1) {
      // The stop chunk and the sentinel travel in one write.
      pieces.push(encoder.encode(`data: ${JSON.stringify(c)}\n\ndata: [DONE]\n\n`));
    } else if (mid > 0) {
      pieces.push(bytes.subarray(0, mid), bytes.subarray(mid));
    } else if (k % 3 === 0) {
      pieces.push(bytes.subarray(0, bytes.length - 1), bytes.subarray(bytes.length - 1));
    } else {
      pieces.push(bytes);
    }
  });
  return pieces;
}

/** The pieces joined into at most `writes` consecutive groups (0: left as they are). */
export function groupPieces(pieces: Uint8Array[], writes: number): Uint8Array[] {
  if (writes <= 0 || pieces.length <= writes) return pieces;
  const size = Math.ceil(pieces.length / writes);
  const groups: Uint8Array[] = [];
  for (let i = 0; i < pieces.length; i += size)
    groups.push(concatPieces(pieces.slice(i, i + size)));
  return groups;
}

/** The pieces joined into the whole stream. */
export function concatPieces(pieces: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
