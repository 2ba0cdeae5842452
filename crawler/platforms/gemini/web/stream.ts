/**
 * Gemini's chat stream (`POST …/BardFrontendService/StreamGenerate`), parsed
 * incrementally: bytes in (rpc-frames.ts cuts them into chunks of
 * envelopes), each envelope applied as it comes. Pure.
 *
 * Envelopes (HanaokaYuzu/Gemini-API `client.py`; ../shared/web-channel.md):
 * - `["wrb.fr", null, "<inner JSON>"]`: a payload holding the response
 *   candidate; each one is a CUMULATIVE SNAPSHOT of the answer so far, so
 *   the last one is the answer (shape.ts reads it by shape);
 * - `["wrb.fr", null, null, null, null, [code, null, [[type, [N]]]]]`: the
 *   site's error inside a 200 stream (1037 usage limit, 1060 temporarily
 *   blocked);
 * - `["di", ms]`, `["af.httprm", ms, token, n]`: bookkeeping, skipped;
 * - `["e", n, null, null, bytes]`: the end of the response **[inferred
 *   from Google's batch responses]**; later envelopes are recorded, never
 *   applied.
 * An envelope of another tag holding text is reported as not placed (the
 * kit's witnesses decide), one without text is skipped; an envelope that is
 * not a tagged list is not this format.
 *
 * Formats, recorded as `parserVersion` (the word; `formatVersion`):
 * - `gemini-2026`: snapshots as the answer grows; citation groups with
 *   `[cite: N]` marks in the text; thoughts as `[[string]]`;
 * - `bard-2024`: one final payload, a flat source list, no thoughts.
 * Which indexes answered (the shape) is in `shape` for the evidence.
 */
import { emptyRaw, type RawAnswer } from '../../common/raw-answer.js';
import { IgnoredFrames, unplacedOf, type StreamReport } from '../../common/ran-mode.js';
import { PlatformError } from '../../types.js';
import { rateLimited, unrecognisedFormat } from '../../../web/signals.js';
import { RpcFrames, SITE, type RpcChunk } from './rpc-frames.js';
import { citeMarks, holdsText, locate, type Located } from './shape.js';

export { SITE } from './rpc-frames.js';
export const FORMATS = { current: 'gemini-2026', older: 'bard-2024' } as const;

/** Tags that carry no answer: timings and the request's bookkeeping. */
const QUIET_TAGS = new Set(['di', 'af.httprm']);
/** The site's error codes inside a 200 stream (HanaokaYuzu/Gemini-API `exceptions.py`). */
const LIMITS: Record<number, string> = {
  1037: 'usage limit exceeded (1037)',
  1060: 'temporarily blocked (1060)',
};

function errorCode(envelope: unknown[]): number | undefined {
  const seen: number[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 5) return;
    if (typeof v === 'number' && v >= 1000) seen.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
  };
  walk(envelope.slice(3), 0);
  return seen[0];
}

export class GeminiStream {
  private readonly rpc = new RpcFrames();
  private latest: Located = locate(null);
  /** The `e` envelope arrived. */
  finished = false;
  /** Payloads that held a candidate: each replaced the one before. */
  snapshots = 0;
  /** Envelopes after the end (recorded, not applied). */
  trailing = 0;
  private readonly ignored = new IgnoredFrames();
  private readonly unplacedFrames = new IgnoredFrames();

  push(chunk: Uint8Array | string): RpcChunk[] {
    return this.rpc.push(chunk);
  }

  end(): RpcChunk[] {
    return this.rpc.end();
  }

  /** Pushes bytes and applies every chunk they complete (tests, whole bodies). */
  feed(chunk: Uint8Array | string): void {
    for (const c of this.push(chunk)) this.apply(c);
  }

  get conversationId(): string {
    return this.latest.conversationId;
  }

  get formatVersion(): string {
    const l = this.latest;
    const older =
      l.sourceShape === 'flat' || (this.snapshots === 1 && !l.sourceShape && !l.thinking);
    return older ? FORMATS.older : FORMATS.current;
  }

  /** Where the answer's fields were found, for the evidence (the indexes move between builds). */
  get shape(): string {
    const l = this.latest;
    return [
      `candidate at ${l.candidateAt ?? 'none'}`,
      `text at ${l.textAt ?? 'none'}`,
      l.thinkingAt && `thinking at ${l.thinkingAt}`,
      l.sourcesAt &&
        `${l.sourceShape === 'cite' ? 'citation groups' : 'sources'} at ${l.sourcesAt}`,
    ]
      .filter(Boolean)
      .join(', ');
  }

  ran(): { thinking: boolean; search: boolean } {
    return {
      thinking: (this.latest.thinking ?? '').trim() !== '',
      search: this.latest.sources.length > 0,
    };
  }

  report(): StreamReport {
    const ignored = new IgnoredFrames();
    for (const i of [...this.ignored.list(), ...this.latest.ignored]) ignored.add(i);
    const unplaced = new IgnoredFrames();
    for (const u of [...this.unplacedFrames.list(), ...this.latest.unplaced]) unplaced.add(u);
    return { ...this.ran(), ignored: ignored.list(), ...unplacedOf(unplaced) };
  }

  apply(chunk: RpcChunk): void {
    for (const envelope of chunk.envelopes) this.applyEnvelope(envelope);
  }

  private applyEnvelope(envelope: unknown): void {
    if (this.finished) {
      this.trailing++;
      return;
    }
    if (!Array.isArray(envelope) || typeof envelope[0] !== 'string')
      throw unrecognisedFormat(
        SITE,
        `an envelope without a tag: ${JSON.stringify(envelope).slice(0, 80)}`,
      );
    const tag = envelope[0];
    if (tag === 'e') {
      this.finished = true;
    } else if (tag === 'wrb.fr') {
      this.payload(envelope);
    } else if (QUIET_TAGS.has(tag)) {
      this.ignored.add(`a "${tag}" envelope`);
    } else if (holdsText(envelope.slice(1))) {
      this.unplacedFrames.add(`a "${tag}" envelope with text`);
    } else {
      this.ignored.add(`a "${tag}" envelope without content`);
    }
  }

  private payload(envelope: unknown[]): void {
    const inner = envelope[2];
    if (typeof inner !== 'string') {
      const code = errorCode(envelope);
      if (code === undefined) {
        this.ignored.add('a wrb.fr envelope without a payload');
        return;
      }
      const limit = LIMITS[code];
      if (limit) throw rateLimited(SITE, limit);
      throw new PlatformError(`${SITE} answered with error ${code}`, 'failed', true);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(inner);
    } catch {
      throw unrecognisedFormat(SITE, `a payload that is not JSON: ${inner.slice(0, 80)}`);
    }
    const found = locate(parsed);
    if (found.candidateAt === undefined) {
      this.ignored.add('a payload without a response candidate');
      return;
    }
    // The whole answer as it stands now: it replaces the last snapshot, never adds to it.
    this.latest = found;
    this.snapshots++;
  }

  /** The answer as the last snapshot holds it (complete once `finished`). */
  result(): RawAnswer {
    const raw = emptyRaw();
    const l = this.latest;
    raw.content = citeMarks(l.text ?? '');
    raw.reasoningContent = (l.thinking ?? '').trim();
    raw.searchResults = l.sources.map((s) => ({ ...s }));
    return raw;
  }
}
