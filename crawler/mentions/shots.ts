/**
 * The screenshots of a sub task, on the API channel's rendered answer page and
 * on the web channel's real page alike. Mode 2 ("screenshot of mentions")
 * highlights every mention of the task's keywords and frames the shot on
 * them: the full page, plus a viewport-sized clip around the first mention
 * when the page is taller than the viewport.
 *
 * The mentions are found in Node by the one matcher (services/shared/brand),
 * on the page's rendered text; the page only hands over its text nodes and
 * paints the ranges it is given, with the CSS Custom Highlight API: the DOM
 * stays untouched (a live chat page's own scripts are not disturbed), and the
 * style goes in as a constructed style sheet, which a site's Content Security
 * Policy against inline styles does not block.
 */
import type { Page } from 'playwright';
import { keywordGroups } from '../../services/shared/brand/groups.js';
import { findMentions } from '../../services/shared/brand/matcher.js';
import { screenshotOf } from '../screenshot.js';
import { clipAround, joinTexts, spansOf, type Box } from './frame.js';
import {
  clearMentions,
  collectTextNodes,
  describeTextNodes,
  paintMentions,
} from './page-scripts.js';

export const HIGHLIGHT_NAME = 'aim-mention';
/** A strong yellow, dark text: seen on light and dark pages alike. */
const HIGHLIGHT_CSS = `::highlight(${HIGHLIGHT_NAME}){background-color:#ffd400;color:#000}`;

export const NOTE_NO_KEYWORDS = 'mode 2 without keywords: a plain screenshot';
export const NOTE_NO_MENTION = 'mode 2: no keyword mentioned on the page: a plain screenshot';

export interface Shots {
  /** The full page (highlighted in mode 2). */
  png: Buffer;
  /** Mode 2, page taller than the viewport: the clip around the first mention. */
  mentionPng?: Buffer;
  /** Mode 2 that fell back to a plain screenshot, and why. */
  note?: string;
  /** Mode 2: the first mention and the clip around it, in page coordinates. */
  first?: Box;
  clip?: Box;
}

export interface ShotRequest {
  /** 0 or 1: a plain screenshot (the caller takes none for 0). */
  screenshot: 0 | 1 | 2;
  /** The task's keyword entries (`Acme|阿克米`); absent or empty: none. */
  keywords?: readonly string[];
  /** The element whose text is searched (CSS selector); absent: the body. */
  root?: string;
}

const fullPage = (page: Page) => screenshotOf(page, { fullPage: true, type: 'png' });

export async function takeShots(page: Page, req: ShotRequest): Promise<Shots> {
  if (req.screenshot !== 2) return { png: await fullPage(page) };
  const groups = keywordGroups(req.keywords ?? []);
  if (groups.length === 0) return { png: await fullPage(page), note: NOTE_NO_KEYWORDS };
  const nodes = await page.evaluateHandle(collectTextNodes, req.root ?? 'body');
  try {
    const texts = await page.evaluate(describeTextNodes, nodes);
    const { text, starts } = joinTexts(texts);
    const spans = spansOf(texts, starts, findMentions(text, groups, { markdown: false }));
    if (spans.length === 0) return { png: await fullPage(page), note: NOTE_NO_MENTION };
    const at = await page.evaluate(paintMentions, {
      nodes,
      spans,
      name: HIGHLIGHT_NAME,
      css: HIGHLIGHT_CSS,
    });
    try {
      const png = await fullPage(page);
      const viewport = page.viewportSize() ?? at.viewport;
      const clip = clipAround(at.page, viewport, at.first);
      if (!clip) return { png, first: at.first };
      const mentionPng = await screenshotOf(page, { fullPage: true, clip, type: 'png' });
      return { png, mentionPng, first: at.first, clip };
    } finally {
      // A web page may be kept for the account's next sub task: it must not keep the marks.
      await page.evaluate(clearMentions, HIGHLIGHT_NAME).catch(() => undefined);
    }
  } finally {
    await nodes.dispose().catch(() => undefined);
  }
}
