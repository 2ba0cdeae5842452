/**
 * Completion by the page itself, for streams that end or stall without their
 * end marker: the answer's text has stopped changing for a few intervals and
 * the site no longer shows its stop button (platforms.md 15.1, pattern 1).
 * Site-neutral: each driver names its own selectors.
 *
 * The page is read with string scripts, so no loader rewrites them.
 */
import type { Page } from 'playwright';
import { timeoutError } from '../platforms/common/errors.js';

export interface StableTextOptions {
  /** The answer element; the last match is read (the newest turn). */
  selector: string;
  /** The site's stop-generating control; while it is visible the answer is not done. */
  stopSelector?: string;
  intervalMs?: number;
  /** How many consecutive intervals the text must stay the same. */
  stableIntervals?: number;
  signal: AbortSignal;
}

/** Sleeps, or rejects with the signal's reason as soon as it aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Rejects with the signal's reason as soon as it aborts; otherwise settles as `work` does. */
export function bounded<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return settleFirst(work, signal, () => signal.reason ?? new Error('aborted'));
}

/** `work`, or a timeout PlatformError saying `what` did not happen, as soon as `signal` aborts. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  return settleFirst(work, signal, () => timeoutError(what));
}

function settleFirst<T>(work: Promise<T>, signal: AbortSignal, reason: () => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

const readScript = (selector: string, stopSelector: string | undefined) => `(() => {
  const all = document.querySelectorAll(${JSON.stringify(selector)});
  const last = all.length ? all[all.length - 1] : null;
  let stop = false;
  ${
    stopSelector
      ? `for (const el of document.querySelectorAll(${JSON.stringify(stopSelector)})) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden') stop = true;
  }`
      : ''
  }
  return { text: last ? (last.innerText || last.textContent || '') : '', stop };
})()`;

/**
 * Waits until the last `selector` element holds the same non-empty text for
 * `stableIntervals` intervals in a row with no visible stop control; returns
 * that text. Defaults: 3 × 500 ms.
 */
export async function waitForStableText(page: Page, o: StableTextOptions): Promise<string> {
  const interval = o.intervalMs ?? 500;
  const needed = o.stableIntervals ?? 3;
  const script = readScript(o.selector, o.stopSelector);
  let previous: string | undefined;
  let stable = 0;
  for (;;) {
    if (o.signal.aborted) throw o.signal.reason ?? new Error('aborted');
    const { text, stop } = (await page.evaluate(script)) as { text: string; stop: boolean };
    stable = !stop && text.trim() !== '' && text === previous ? stable + 1 : 0;
    if (stable >= needed) return text;
    previous = text;
    await pause(interval, o.signal);
  }
}
