/**
 * Screenshot mode 2, the pure part: where the mentions found in a page's text
 * lie among its text nodes, and the clip that frames the first one.
 */

export interface Size {
  width: number;
  height: number;
}

export interface Box extends Size {
  x: number;
  y: number;
}

/** A page's text node as collected: its text and the block element it flows in. */
export interface PageText {
  text: string;
  /** Index of its nearest block-level ancestor: text nodes of one block read as one run. */
  block: number;
}

/** A mention as a DOM Range: start and end as (text node index, offset in it). */
export interface NodeSpan {
  startNode: number;
  startOffset: number;
  endNode: number;
  endOffset: number;
}

/**
 * The page's text as one string for the matcher. Text nodes of one block are
 * joined as they read ("Ac<b>me</b>" is "Acme"); blocks are apart by a line
 * break, so "<li>Acme</li><li>Corp</li>" is not "AcmeCorp". `starts[i]` is
 * where node i begins.
 */
export function joinTexts(texts: readonly PageText[]): { text: string; starts: number[] } {
  const starts: number[] = [];
  let text = '';
  texts.forEach((t, i) => {
    if (i > 0 && t.block !== texts[i - 1]!.block) text += '\n';
    starts.push(text.length);
    text += t.text;
  });
  return { text, starts };
}

/**
 * Each range of the joined text (joinTexts) as a span over the text nodes.
 * A range that only covers line breaks between blocks covers no node and is
 * left out.
 */
export function spansOf(
  texts: readonly PageText[],
  starts: readonly number[],
  ranges: readonly { start: number; end: number }[],
): NodeSpan[] {
  const spans: NodeSpan[] = [];
  for (const { start, end } of ranges) {
    // The first node that ends after `start`, the last that begins before `end`.
    const a = starts.findIndex((s, i) => s + texts[i]!.text.length > start);
    let b = -1;
    for (let i = starts.length - 1; i >= 0; i--)
      if (starts[i]! < end) {
        b = i;
        break;
      }
    if (a < 0 || b < a) continue;
    spans.push({
      startNode: a,
      startOffset: Math.max(0, start - starts[a]!),
      endNode: b,
      endOffset: Math.min(texts[b]!.text.length, end - starts[b]!),
    });
  }
  return spans;
}

/**
 * The clip around the first mention: the viewport's size (no wider than the
 * page), centred on the mention and moved to lie within the page. Null when
 * the page is no taller than the viewport: the full page shows it already.
 */
export function clipAround(page: Size, viewport: Size, mention: Box): Box | null {
  if (page.height <= viewport.height) return null;
  const width = Math.min(viewport.width, page.width);
  const height = viewport.height;
  const within = (centre: number, size: number, total: number) =>
    Math.round(Math.min(Math.max(centre - size / 2, 0), total - size));
  return {
    x: within(mention.x + mention.width / 2, width, page.width),
    y: within(mention.y + mention.height / 2, height, page.height),
    width,
    height,
  };
}
