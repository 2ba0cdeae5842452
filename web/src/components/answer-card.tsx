/**
 * One sub task's answer: Markdown with keyword highlights, mentions, sources
 * (cited ones marked), reasoning, follow-ups, screenshots and, for the web
 * channel, its raw evidence.
 */
import { useMemo, useState } from 'preact/hooks';
import { download, sameOrigin } from '../api.js';
import { platformLabel } from '../format.js';
import { useT } from '../i18n.js';
import { renderAnswer } from '../markdown.js';
import type { KeywordGroup, SubTaskResult } from '../types.js';
import { StatusBadge } from './status-badge.js';
import { ZoomImage } from './zoom-image.js';

/** `groups`: the task's keyword groups, whose every alias is marked in the answer. */
export function AnswerCard({ sub, groups }: { sub: SubTaskResult; groups: KeywordGroup[] }) {
  const t = useT();
  const [problem, setProblem] = useState<string | null>(null);
  const html = useMemo(
    () => renderAnswer(sub.answerContent ?? '', groups),
    [sub.answerContent, groups],
  );
  const cited = new Set(sub.citationList.map((c) => c.url));
  const shot = sameOrigin(sub.pageScreenshot);
  const mentionShot = sameOrigin(sub.mentionScreenshot);
  const raw = sameOrigin(sub.rawEvidence);

  return (
    <article class="card answer" data-testid={`answer-${sub.channel ?? 'api'}`}>
      <header class="row wrap">
        <h2>{platformLabel({ ...sub, mode: sub.effectiveMode ?? sub.mode })}</h2>
        <StatusBadge status={sub.status} />
        {sub.proxyIp && <span class="muted">{sub.proxyIp}</span>}
      </header>
      {sub.errorMessage && (
        <p class="error">
          {t('error')}: {sub.errorMessage}
        </p>
      )}
      {sub.mentions.length > 0 && (
        <ul class="chips" data-testid="mentions">
          {sub.mentions.map((m) => (
            <li class={m.count > 0 ? 'hit' : ''}>
              {m.keyword}: {m.count}
              {m.position !== null && ` · ${t('positionChip', { n: m.position })}`}
              {m.groupRank !== null && ` · ${t('groupRankChip', { n: m.groupRank })}`}
            </li>
          ))}
        </ul>
      )}
      {sub.answerContent ? (
        <div class="markdown" data-testid="markdown" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <p class="muted">{t('noAnswer')}</p>
      )}
      {sub.reasoningProcess && (
        <details data-testid="reasoning">
          <summary>
            {t('reasoning')}: {sub.reasoningProcess.summary.slice(0, 120)}
          </summary>
          <pre class="wrap-text">{sub.reasoningProcess.content}</pre>
        </details>
      )}
      {sub.referenceList.length > 0 && (
        <>
          <h3>{t('references')}</h3>
          <ol class="refs" data-testid="references">
            {sub.referenceList.map((r) => (
              <li value={r.index} class={cited.has(r.url) ? 'cited' : ''}>
                <a href={r.url} target="_blank" rel="noopener noreferrer">
                  {r.title || r.url}
                </a>{' '}
                <span class="muted">{r.site}</span>
                {cited.has(r.url) && <span class="badge s-completed">{t('cited')}</span>}
              </li>
            ))}
          </ol>
        </>
      )}
      {sub.recommendedQuestions.length > 0 && (
        <>
          <h3>{t('followUps')}</h3>
          <ul data-testid="follow-ups">
            {sub.recommendedQuestions.map((q) => (
              <li>{q}</li>
            ))}
          </ul>
        </>
      )}
      <div class="shots">
        {shot && <ZoomImage src={shot} alt={t('pageScreenshot')} testId="screenshot" />}
        {mentionShot && (
          <ZoomImage src={mentionShot} alt={t('mentionsShot')} testId="mention-screenshot" />
        )}
      </div>
      {raw && (
        <button
          type="button"
          onClick={() =>
            download(raw, `${sub.subTaskId}.ndjson`).catch((e: Error) => setProblem(e.message))
          }
          data-testid="raw-evidence"
        >
          {t('rawEvidence')}
        </button>
      )}
      {problem && <p class="error">{problem}</p>}
    </article>
  );
}
