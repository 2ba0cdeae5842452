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
import { clipAround, joinTexts, spansOf, type Box, type NodeSpan, type PageText } from './frame.js';

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
}

export interface ShotRequest {
  screenshot: 1 | 2;
  /** The task's keyword entries (`Acme|阿克米`); absent or empty: none. */
  keywords?: readonly string[];
  /** The element whose text is searched (CSS selector); absent: the body. */
  root?: string;
}

const fullPage = (page: Page) => page.screenshot({ fullPage: true, type: 'png' });

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
      const mentionPng = clip
        ? await page.screenshot({ fullPage: true, clip, type: 'png' })
        : undefined;
      return mentionPng ? { png, mentionPng } : { png };
    } finally {
      // A web page may be kept for the account's next sub task: it must not keep the marks.
      await page.evaluate(clearMentions, HIGHLIGHT_NAME).catch(() => undefined);
    }
  } finally {
    await nodes.dispose().catch(() => undefined);
  }
}

// The functions below run in the page (serialised by Playwright): no imports, no closures.

function collectTextNodes(rootSelector: string): Text[] {
  const root = document.querySelector(rootSelector) ?? document.body;
  const skipped = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA']);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => {
      const parent = n.parentElement;
      if (!parent || skipped.has(parent.tagName) || !parent.checkVisibility())
        return NodeFilter.FILTER_REJECT;
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  const nodes: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  return nodes;
}

function describeTextNodes(nodes: Text[]): PageText[] {
  const blocks = new Map<Element, number>();
  return nodes.map((n) => {
    let el: Element | null = n.parentElement;
    while (el?.parentElement && /^(inline|contents)/.test(getComputedStyle(el).display))
      el = el.parentElement;
    const key = el ?? document.body;
    if (!blocks.has(key)) blocks.set(key, blocks.size);
    return { text: n.data, block: blocks.get(key)! };
  });
}

function paintMentions(a: { nodes: Text[]; spans: NodeSpan[]; name: string; css: string }): {
  first: Box;
  page: { width: number; height: number };
  viewport: { width: number; height: number };
} {
  const ranges = a.spans.map((s) => {
    const r = document.createRange();
    r.setStart(a.nodes[s.startNode]!, s.startOffset);
    r.setEnd(a.nodes[s.endNode]!, s.endOffset);
    return r;
  });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(a.css);
  (sheet as CSSStyleSheet & { aimMention?: boolean }).aimMention = true;
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  CSS.highlights.set(a.name, new Highlight(...ranges));
  // A chat page scrolls in an inner pane: bring the first mention into it.
  ranges[0]!.startContainer.parentElement?.scrollIntoView({ block: 'center', inline: 'nearest' });
  const rect = ranges[0]!.getBoundingClientRect();
  const doc = document.documentElement;
  return {
    first: { x: rect.left + scrollX, y: rect.top + scrollY, width: rect.width, height: rect.height },
    page: {
      width: Math.max(doc.scrollWidth, document.body?.scrollWidth ?? 0),
      height: Math.max(doc.scrollHeight, document.body?.scrollHeight ?? 0),
    },
    viewport: { width: innerWidth, height: innerHeight },
  };
}

function clearMentions(name: string): void {
  CSS.highlights.delete(name);
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter(
    (s) => !(s as CSSStyleSheet & { aimMention?: boolean }).aimMention,
  );
}

