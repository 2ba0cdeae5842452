/**
 * What the Kimi web driver must report for the replica's answer to (prompt,
 * mode): the text, the sources numbered from 1 in the site's order, the cited
 * subset (the replica cites the first and the third), the reasoning and the
 * follow-ups; `withThink` / `withSuggestions` false where a build sends none.
 */
import type { Reference } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import { hasReasoning, hasSearch } from '../../crawler/platforms/common/answer.js';
import { replicaAnswer } from './answers.js';

export interface ExpectedFields {
  answerContent: string;
  referenceList: Reference[];
  citationList: Reference[];
  reasoning: string | null;
  recommendedQuestions: string[];
}

export function expectedFields(
  prompt: string,
  mode: Mode,
  siteUrl: string,
  withThink = true,
  withSuggestions = true,
): ExpectedFields {
  const a = replicaAnswer(
    prompt,
    { thinking: hasReasoning(mode), search: hasSearch(mode) },
    siteUrl,
  );
  const refs = a.results.map((r, i) => ({
    index: i + 1,
    title: r.title,
    url: r.url,
    site: r.siteName,
    icon: r.icon,
  }));
  return {
    answerContent: a.text,
    referenceList: refs,
    citationList: refs.filter((r) => r.index === 1 || r.index === 3),
    reasoning: withThink && a.think ? a.think : null,
    recommendedQuestions: withSuggestions ? a.suggestions : [],
  };
}
