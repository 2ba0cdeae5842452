/**
 * The mode that really ran, read from what the site streamed: thinking frames
 * present means reasoning ran, search results present means a search ran.
 * The request body only says what the page asked for; a site that silently
 * falls back (a deep-thinking quota run out, a search skipped) still answers,
 * and only the stream shows it. Pure apart from the evidence notes.
 */
import type { Mode } from '../../../services/shared/platforms.js';
import { hasReasoning, hasSearch } from './answer.js';

/**
 * What a site's stream parser saw, whatever its format. A format that has no
 * frames for reasoning or for search at all (Doubao's samantha format) says
 * `undefined` there: its silence is no evidence, and the request decides.
 */
export interface StreamReport {
  /** Reasoning (thinking) frames with content arrived. */
  thinking: boolean | undefined;
  /** Search results arrived. */
  search: boolean | undefined;
  /** Events and fields no known format names, kept in the evidence and not applied. */
  ignored: readonly string[];
  /**
   * Frames before the end marker that carry answer text the parser cannot
   * place (an unknown event holding text, a content field renamed): kept in
   * the evidence, not applied, never quietly skipped. The kit's two witnesses
   * decide what they cost (crawler/web/witness.ts); absent or empty: none.
   */
  unplaced?: readonly string[];
}

export function modeOf(thinking: boolean, search: boolean): Mode {
  if (thinking) return search ? 'reasoning_search' : 'reasoning';
  return search ? 'search' : 'standard';
}

/** Why the mode that ran differs from the one asked for, or undefined when it does not. */
export function fallbackOf(requested: Mode, ran: Mode): string | undefined {
  const lost = [
    hasReasoning(requested) && !hasReasoning(ran) ? 'no thinking frames' : '',
    hasSearch(requested) && !hasSearch(ran) ? 'no search results' : '',
  ].filter(Boolean);
  if (lost.length === 0) return undefined;
  return `silent fallback: asked ${requested}, the stream ran ${ran} (${lost.join(', ')})`;
}

/**
 * The effective mode: the stream's evidence when a stream was read to its end
 * marker, else what the captured request asked for (`fromRequest`, read only
 * then, or for what the stream's format cannot show: a DOM-read answer has no
 * stream to judge by). Notes the ignored frames
 * and a silent fallback in the evidence.
 */
export function effectiveModeOf(
  requested: Mode,
  report: StreamReport | undefined,
  fromRequest: () => Mode,
  evidence: { note(text: string): void },
): Mode {
  if (report && report.ignored.length > 0) {
    evidence.note(`frames kept but not applied: ${report.ignored.join('; ')}`);
  }
  if (report?.unplaced && report.unplaced.length > 0) {
    evidence.note(`frames with answer text not applied: ${report.unplaced.join('; ')}`);
  }
  let ran: Mode;
  if (!report) ran = fromRequest();
  else if (report.thinking === undefined || report.search === undefined) {
    const asked = fromRequest();
    ran = modeOf(report.thinking ?? hasReasoning(asked), report.search ?? hasSearch(asked));
  } else ran = modeOf(report.thinking, report.search);
  const fallback = fallbackOf(requested, ran);
  if (fallback) evidence.note(fallback);
  return ran;
}

/** Remembers up to a few distinct descriptions of ignored frames (the frames are in the evidence). */
export class IgnoredFrames {
  private readonly seen: string[] = [];
  private count = 0;

  add(what: string): void {
    this.count++;
    if (this.seen.length < 10 && !this.seen.includes(what)) this.seen.push(what);
  }

  list(): readonly string[] {
    return this.count > this.seen.length
      ? [...this.seen, `${this.count} frames in all`]
      : [...this.seen];
  }
}

/** What the kit set before the ask: each mode control's state, where the page had the control. */
export interface ModeSet {
  thinking?: boolean;
  search?: boolean;
}

/**
 * The control the page did not carry into the ask, or undefined. A control
 * the kit just set disagrees when the chat call asked otherwise (`asked`,
 * read from the request; undefined when unreadable), or when the stream ran
 * what the kit turned off. A stream that lacks what the kit turned on, while
 * the call asked for it, is the site's own silent fallback (a quota run
 * out), reported as the effective mode and not as this. Pure.
 */
export function notApplied(
  set: ModeSet,
  asked: Mode | undefined,
  ran: Mode,
): 'thinking' | 'search' | undefined {
  const checks = [
    ['thinking', set.thinking, hasReasoning],
    ['search', set.search, hasSearch],
  ] as const;
  for (const [which, on, has] of checks) {
    if (on === undefined) continue;
    if (asked !== undefined && has(asked) !== on) return which;
    if (!on && has(ran)) return which;
  }
  return undefined;
}

/** The report's `unplaced` field: present only when some frame's text was not applied. */
export function unplacedOf(frames: IgnoredFrames): { unplaced?: readonly string[] } {
  const list = frames.list();
  return list.length > 0 ? { unplaced: list } : {};
}
