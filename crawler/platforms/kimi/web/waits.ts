/**
 * Waits bound to the job's signal: every one ends as soon as the job is
 * aborted (deadline or lost lease), with the signal's reason.
 */
import type { Page } from 'playwright';
import { bounded, pause } from '../../../web/dom-wait.js';
import { SIGNALS_SCRIPT, type PageSignals } from './dom.js';

export const signalsOf = (page: Page) => page.evaluate(SIGNALS_SCRIPT) as Promise<PageSignals>;

/** Polls the page until `test` returns a value (not undefined). */
export async function until<T>(
  page: Page,
  test: (s: PageSignals) => T | undefined,
  signal: AbortSignal,
  intervalMs = 250,
): Promise<T> {
  for (;;) {
    const found = test(await bounded(signalsOf(page), signal));
    if (found !== undefined) return found;
    await pause(intervalMs, signal);
  }
}

/**
 * The DOM's verdict that an answer is complete: its text is not empty, has
 * not changed for `stableReads` reads `intervalMs` apart, and no stop button
 * shows. Resolves with that text.
 */
export async function settledAnswer(
  page: Page,
  signal: AbortSignal,
  stableReads = 3,
  intervalMs = 500,
): Promise<string> {
  let last = '';
  let stable = 0;
  for (;;) {
    const s = await bounded(signalsOf(page), signal);
    if (s.answerText !== '' && s.answerText === last && !s.streaming) stable++;
    else stable = 0;
    last = s.answerText;
    if (stable >= stableReads) return last;
    await pause(intervalMs, signal);
  }
}
