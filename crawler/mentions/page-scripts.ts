/**
 * What mode 2 runs inside the page. Written as source text and built with
 * `new Function`, so that no loader rewrites them (as with dom-wait.ts's
 * string scripts) while Playwright can still pass them arguments and handles.
 */
import type { Box, NodeSpan, PageText } from './frame.js';

function inPage<A, R>(source: string): (arg: A) => R {
  return new Function(`return (${source});`)() as (arg: A) => R;
}

/** Opaque to Node: the page's text nodes, in document order. */
export type TextNodes = unknown[];

/** The visible text nodes under the root (a CSS selector; the body when it matches nothing). */
export const collectTextNodes = inPage<string, TextNodes>(`(rootSelector) => {
  const root = document.querySelector(rootSelector) || document.body;
  const skipped = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA']);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => {
      const parent = n.parentElement;
      if (!parent || skipped.has(parent.tagName) || !parent.checkVisibility())
        return NodeFilter.FILTER_REJECT;
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
  return nodes;
}`);

/** Each node's text and the index of the block element it flows in. */
export const describeTextNodes = inPage<TextNodes, PageText[]>(`(nodes) => {
  const blocks = new Map();
  return nodes.map((n) => {
    let el = n.parentElement;
    while (el && el.parentElement && /^(inline|contents)/.test(getComputedStyle(el).display))
      el = el.parentElement;
    const key = el || document.body;
    if (!blocks.has(key)) blocks.set(key, blocks.size);
    return { text: n.data, block: blocks.get(key) };
  });
}`);

export interface Painted {
  /** The first mention, in page coordinates (after scrolling it into view). */
  first: Box;
  /** The scrollable size of the document, as Playwright's full-page screenshot takes it. */
  page: { width: number; height: number };
  viewport: { width: number; height: number };
}

/**
 * Highlights the spans (CSS Custom Highlight API, style in a constructed
 * sheet marked for clearMentions) and scrolls the first into view: a chat
 * page scrolls in an inner pane, which the full-page screenshot does not unroll.
 */
export const paintMentions = inPage<
  { nodes: TextNodes; spans: NodeSpan[]; name: string; css: string },
  Painted
>(`(a) => {
  const ranges = a.spans.map((s) => {
    const r = document.createRange();
    r.setStart(a.nodes[s.startNode], s.startOffset);
    r.setEnd(a.nodes[s.endNode], s.endOffset);
    return r;
  });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(a.css);
  sheet.aimMention = true;
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  CSS.highlights.set(a.name, new Highlight(...ranges));
  const firstNode = ranges[0].startContainer.parentElement;
  if (firstNode) firstNode.scrollIntoView({ block: 'center', inline: 'nearest' });
  const rect = ranges[0].getBoundingClientRect();
  const doc = document.documentElement;
  const body = document.body;
  return {
    first: { x: rect.left + scrollX, y: rect.top + scrollY, width: rect.width, height: rect.height },
    page: {
      width: Math.max(doc.scrollWidth, body ? body.scrollWidth : 0),
      height: Math.max(doc.scrollHeight, body ? body.scrollHeight : 0),
    },
    viewport: { width: innerWidth, height: innerHeight },
  };
}`);

/** Takes the highlight and its style sheet off the page again. */
export const clearMentions = inPage<string, void>(`(name) => {
  CSS.highlights.delete(name);
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => !s.aimMention);
}`);
