/**
 * The bundle's `answer.html`: the answer's DOM snapshot the crawler put into
 * the raw evidence (a `dom` line, crawler/web/answer-dom.ts), as a page that
 * opens in a browser without fetching or running anything.
 */
interface DomLine {
  kind: 'dom';
  selector: string;
  html: string;
  length: number;
}

/** The last `dom` line of an NDJSON evidence text; undefined without one. */
function lastDomLine(ndjson: string): DomLine | undefined {
  let found: DomLine | undefined;
  for (const line of ndjson.split('\n')) {
    if (!line.includes('"dom"')) continue;
    try {
      const e = JSON.parse(line) as Partial<DomLine>;
      if (e.kind === 'dom' && typeof e.html === 'string') found = e as DomLine;
    } catch {
      continue;
    }
  }
  return found;
}

const comment = (text: string) => text.replace(/--/g, '- -');

/** The snapshot as an HTML document, or undefined when the evidence holds none. */
export function answerHtml(ndjson: string): Buffer | undefined {
  const dom = lastDomLine(ndjson);
  if (!dom) return undefined;
  const cut =
    dom.length > dom.html.length ? `; cut to ${dom.html.length} of ${dom.length} characters` : '';
  return Buffer.from(
    [
      '<!doctype html>',
      '<meta charset="utf-8">',
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
      `<!-- the answer element (${comment(dom.selector)}) as the page showed it, scripts removed${cut} -->`,
      dom.html,
      '',
    ].join('\n'),
    'utf8',
  );
}
