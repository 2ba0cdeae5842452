/**
 * An answer's Markdown as safe HTML: marked renders, DOMPurify removes
 * anything active, links open apart without a referrer, and every mention of
 * the task's brand keywords is wrapped in <mark data-keyword="group">.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import type { KeywordGroup } from '../../services/shared/contracts/brand.js';
import { mentionPieces } from './mention-pieces.js';

/** Marks the mentions in the text nodes under `root` (code too: the service counts a brand named there). */
export function highlight(root: Node, groups: readonly KeywordGroup[]): number {
  if (groups.length === 0) return 0;
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    texts.push(n as Text);
  }
  let marks = 0;
  for (const text of texts) {
    const pieces = mentionPieces(text.data, groups);
    if (!pieces.some((p) => p.keyword)) continue;
    text.replaceWith(
      ...pieces.map((p) => {
        if (!p.keyword) return doc.createTextNode(p.text);
        const mark = doc.createElement('mark');
        mark.textContent = p.text;
        mark.dataset.keyword = p.keyword;
        mark.title = p.keyword;
        marks++;
        return mark;
      }),
    );
  }
  return marks;
}

export function renderAnswer(markdown: string, groups: readonly KeywordGroup[]): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  const fragment = DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true });
  for (const a of fragment.querySelectorAll('a[href]')) {
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
  }
  highlight(fragment, groups);
  const box = document.createElement('div');
  box.append(fragment);
  return box.innerHTML;
}
