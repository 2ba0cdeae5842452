/**
 * Whether the page's reading of an answer is whole enough to stand in for a
 * stream that lost part of it (crawler/web/witness.ts). A site's DOM reader
 * that once gave everything can lose a part of it when the site changes (a
 * renamed class leaves the sources' icons or the reasoning unread), and a
 * page reading that lacks what even the broken stream held is no better a
 * witness: the sub task then fails as `format_drift` instead.
 *
 * The page's reading lacks something when its text is not the rendered
 * text, or when the stream held a source (by URL), a source's title, site or
 * icon, a citation, reasoning or follow-up questions that the page's reading
 * does not. Pure.
 */
import type { Answer } from '../../services/shared/contracts/answer.js';
import { compareWitnesses } from './witness.js';

/** What the page's reading lacks against the rendered text and the stream; empty: none. */
export function pageReadingLacks(o: {
  fromPage: Answer;
  stream: Answer;
  rendered: string;
}): string[] {
  const { fromPage, stream, rendered } = o;
  const lacks: string[] = [];
  if (!compareWitnesses(fromPage.answerContent, rendered).agree)
    lacks.push('its text is not the rendered text');
  const byUrl = new Map(fromPage.referenceList.map((r) => [r.url, r]));
  for (const s of stream.referenceList) {
    const p = byUrl.get(s.url);
    if (!p) {
      lacks.push(`the source ${s.url}`);
      continue;
    }
    for (const field of ['title', 'site', 'icon'] as const)
      if (s[field] && !p[field]) lacks.push(`the ${field} of ${s.url}`);
  }
  const cited = new Set(fromPage.citationList.map((c) => c.url));
  for (const c of stream.citationList)
    if (!cited.has(c.url)) lacks.push(`the citation of ${c.url}`);
  if (stream.reasoningProcess?.content.trim() && !fromPage.reasoningProcess?.content.trim())
    lacks.push('the reasoning');
  if (stream.recommendedQuestions.length > fromPage.recommendedQuestions.length)
    lacks.push('follow-up questions');
  return lacks;
}
