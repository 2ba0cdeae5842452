/**
 * The DOM snapshot of an answer for the evidence: the newest answer
 * element's outerHTML as the page finally shows it, without its scripts
 * (`<script>` elements, `on…` handlers, `javascript:` URLs), so that the
 * bundle's `answer.html` shows the answer and runs nothing when opened.
 */
import type { Page } from 'playwright';
import type { EvidenceLog } from './evidence-log.js';

/** How much of the answer's HTML the evidence keeps (an answer is rarely a tenth of it). */
export const ANSWER_DOM_CHARS = 500_000;

/** Runs in the page: a cleaned copy of the newest match, the page's own DOM untouched; null: none. */
const snapshotScript = (selector: string) => `(() => {
  const all = document.querySelectorAll(${JSON.stringify(selector)});
  if (all.length === 0) return null;
  const copy = all[all.length - 1].cloneNode(true);
  for (const script of copy.querySelectorAll('script')) script.remove();
  for (const node of [copy, ...copy.querySelectorAll('*')])
    for (const { name, value } of [...node.attributes])
      if (/^on/i.test(name) || /^\\s*javascript:/i.test(value)) node.removeAttribute(name);
  return copy.outerHTML;
})()`;

/** Records the newest `selector` element into the evidence; a page without one leaves a note. */
export async function recordAnswerDom(
  page: Page,
  selector: string,
  evidence: Pick<EvidenceLog, 'dom' | 'note'>,
): Promise<void> {
  let html: string | null;
  try {
    html = await page.evaluate<string | null>(snapshotScript(selector));
  } catch (err) {
    evidence.note(`no DOM snapshot: ${String(err).slice(0, 200)}`);
    return;
  }
  if (html === null) evidence.note(`no DOM snapshot: no element matches ${selector}`);
  else evidence.dom(selector, html.slice(0, ANSWER_DOM_CHARS), html.length);
}
