/**
 * An answer's Markdown as safe HTML: marked renders, DOMPurify removes
 * anything active, links open apart without a referrer, and the task's
 * brand keywords are wrapped in <mark>.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { keywordPattern } from './keywords.js';

/** Wraps each keyword match in the text nodes under `root` (never inside code or links' URLs). */
export function highlight(root: Node, pattern: RegExp | null): number {
  if (!pattern) return 0;
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement?.closest('code, pre, mark')) texts.push(n as Text);
  }
  let marks = 0;
  for (const text of texts) {
    const value = text.data;
    pattern.lastIndex = 0;
    const pieces: Node[] = [];
    let at = 0;
    for (const m of value.matchAll(pattern)) {
      pieces.push(doc.createTextNode(value.slice(at, m.index)));
      const mark = doc.createElement('mark');
      mark.textContent = m[0];
      pieces.push(mark);
      at = m.index + m[0].length;
      marks++;
    }
    if (pieces.length === 0) continue;
    pieces.push(doc.createTextNode(value.slice(at)));
    text.replaceWith(...pieces);
  }
  return marks;
}

export function renderAnswer(markdown: string, keywords: string[]): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  const fragment = DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true });
  for (const a of fragment.querySelectorAll('a[href]')) {
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
  }
  highlight(fragment, keywordPattern(keywords));
  const box = document.createElement('div');
  box.append(fragment);
  return box.innerHTML;
}
