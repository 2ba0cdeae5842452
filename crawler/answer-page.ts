/**
 * The answer of an API-channel sub task rendered as a platform-styled answer
 * page, which Chromium screenshots (spec: screenshot of the answer). Pure.
 */
import type { Answer } from '../services/shared/contracts/answer.js';
import { escapeHtml, renderMarkdown } from './markdown.js';

export interface AnswerPageInput {
  platformLabel: string;
  prompt: string;
  answer: Answer;
}

/** The element that holds the answer (and its reasoning): where mode 2 looks for mentions. */
export const ANSWER_SELECTOR = 'main > .answer';

export function renderAnswerPage({ platformLabel, prompt, answer }: AnswerPageInput): string {
  const cited = new Set(answer.citationList.map((r) => r.index));
  const references = answer.referenceList
    .map(
      (r) =>
        `<li class="${cited.has(r.index) ? 'cited' : ''}"><span class="n">[${r.index}]</span> <a href="${escapeHtml(r.url)}">${escapeHtml(r.title)}</a> <span class="site">${escapeHtml(r.site)}</span></li>`,
    )
    .join('');
  const reasoning = answer.reasoningProcess
    ? `<details class="reasoning" open><summary>Reasoning: ${escapeHtml(answer.reasoningProcess.summary)}</summary><div>${renderMarkdown(answer.reasoningProcess.content)}</div></details>`
    : '';
  const questions = answer.recommendedQuestions.map((q) => `<li>${escapeHtml(q)}</li>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(platformLabel)}</title>
<style>
body{margin:0;font:15px/1.6 "Noto Sans","Noto Sans CJK SC","PingFang SC",system-ui,sans-serif;background:#f4f6f8;color:#1f2933}
header{background:#1f2933;color:#fff;padding:12px 24px;font-weight:600}
main{max-width:860px;margin:20px auto;padding:0 20px}
.prompt{background:#dbeafe;border-radius:14px;padding:10px 16px;margin-left:auto;max-width:80%;width:fit-content}
.answer{background:#fff;border-radius:14px;padding:14px 20px;margin-top:14px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.reasoning{color:#52606d;border-left:3px solid #cbd2d9;padding-left:10px;margin-bottom:10px}
sup.cite{color:#2563eb;font-weight:600}
ol.refs{list-style:none;padding-left:0} ol.refs li.cited{font-weight:600} .n{color:#2563eb;margin-right:4px} .site{color:#7b8794;font-size:13px}
table{border-collapse:collapse;margin:8px 0} th,td{border:1px solid #cbd2d9;padding:4px 10px} th{background:#f4f6f8}
blockquote{border-left:3px solid #93c5fd;margin:8px 0;padding:4px 12px;background:#eff6ff}
ul.related{color:#2563eb}
</style></head><body>
<header>${escapeHtml(platformLabel)}</header>
<main>
<div class="prompt">${escapeHtml(prompt)}</div>
<div class="answer">${reasoning}${renderMarkdown(answer.answerContent)}</div>
${references ? `<h4>Sources</h4><ol class="refs">${references}</ol>` : ''}
${questions ? `<h4>Related</h4><ul class="related">${questions}</ul>` : ''}
</main></body></html>`;
}
