/**
 * The second witness of an answer: the text the page rendered, read once the
 * stream is complete and compared with the stream's (witness.ts). The page's
 * own script may draw the last chunk a moment after the capture saw it, so a
 * first reading that disagrees is read again until it agrees, or stops
 * changing with no stop control shown, within SETTLE_MS. An agreeing page,
 * or one with no answer element, costs one read.
 */
import type { Page } from 'playwright';
import { compareWitnesses, type WitnessVerdict } from './witness.js';

/** How long a disagreeing page may take to settle. */
const SETTLE_MS = 3_000;
/** Short: the page draws the stream's last chunk a few ms after the capture saw it. */
const POLL_MS = 50;
/** Readings in a row without change that make a page settled (with no stop control shown). */
const STEADY = 6;

const readScript = (selector: string, stop: string | undefined) => `(() => {
  // The outermost matches only: a selector such as [class*="markdown"] also matches their parts.
  const all = [...document.querySelectorAll(${JSON.stringify(selector)})];
  const outer = all.filter((el) => !all.some((o) => o !== el && o.contains(el)));
  const last = outer.length ? outer[outer.length - 1] : null;
  let busy = false;
  ${
    stop
      ? `for (const el of document.querySelectorAll(${JSON.stringify(stop)})) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden') busy = true;
  }`
      : ''
  }
  return last ? { text: last.innerText || last.textContent || '', busy } : null;
})()`;

export interface PageWitness {
  /** The page's answer text; undefined when the page shows no answer element. */
  text: string | undefined;
  verdict: WitnessVerdict | undefined;
  /** What the reading and the comparison took, ms. */
  ms: number;
  /** How many times the page was read (1: it agreed at once). */
  reads: number;
}

/** Reads the rendered answer (`selector`, the newest match) and compares it with `stream`. */
export async function witnessPage(
  page: Page,
  o: { selector: string; stop?: string; stream: string; signal: AbortSignal },
): Promise<PageWitness> {
  const started = performance.now();
  const script = readScript(o.selector, o.stop);
  const until = Date.now() + SETTLE_MS;
  let last: string | undefined;
  let steady = 0;
  for (let reads = 1; ; reads++) {
    const shown = (await page.evaluate(script)) as { text: string; busy: boolean } | null;
    const text = shown?.text;
    const verdict = text === undefined ? undefined : compareWitnesses(o.stream, text);
    steady = text !== undefined && text === last && !shown?.busy ? steady + 1 : 0;
    last = text;
    // No answer element (a build whose markup the selector misses): nothing to wait for.
    if (
      text === undefined ||
      verdict?.agree ||
      steady >= STEADY ||
      Date.now() > until ||
      o.signal.aborted
    )
      return { text, verdict, ms: performance.now() - started, reads };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
