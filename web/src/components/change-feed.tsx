/** The changes larger than the noise, newest first, each with where it was seen and links to its run's tasks. */
import { useContext } from 'preact/hooks';
import { when } from '../format.js';
import { LangContext, useT } from '../i18n.js';
import type { Change, Run } from '../monitor-types.js';
import { changeScope, changeValues, regionLabel } from '../monitor-text.js';
import { onLink, paths } from '../router.js';

interface Props {
  changes: readonly Change[];
  /** Each run's regions (task ids) by run id; a run not among them shows no links. */
  runs: ReadonlyMap<string, Run['regions']>;
  prompts: readonly string[];
}

export function ChangeFeed({ changes, runs, prompts }: Props) {
  const t = useT();
  const { lang } = useContext(LangContext);
  if (changes.length === 0)
    return (
      <p class="muted" data-testid="changes-empty">
        {t('noChangesYet')}
      </p>
    );
  return (
    <ul class="feed" data-testid="changes">
      {changes.map((c) => {
        const values = changeValues(c);
        return (
          <li data-testid="change">
            <strong>
              {t(`change_${c.kind}`, { keyword: c.keyword ?? '', domain: c.domain ?? '' })}
            </strong>
            {values && <span class="mono"> {values}</span>}
            <span class="muted"> · {changeScope(c, prompts, t('wholeRun'))}</span>
            <span class="muted"> · {when(c.detectedAt, lang)}</span>
            {c.detail && <p class="muted">{c.detail}</p>}
            <span class="links">
              {(runs.get(c.runId) ?? []).map((g) => (
                <a href={paths.task(g.taskId)} onClick={onLink} data-testid="change-task">
                  {regionLabel(g.regionCode, t('noRegion'))}
                </a>
              ))}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
