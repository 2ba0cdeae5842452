/** A monitor's runs, newest first: when, why, status, each region's task (a link to its page) and the answers asked. */
import { useContext } from 'preact/hooks';
import { when } from '../format.js';
import { LangContext, useT } from '../i18n.js';
import type { Run } from '../monitor-types.js';
import { regionLabel } from '../monitor-text.js';
import { onLink, paths } from '../router.js';
import { StatusBadge } from './status-badge.js';

export function MonitorRuns({ runs }: { runs: readonly Run[] }) {
  const t = useT();
  const { lang } = useContext(LangContext);
  if (runs.length === 0)
    return (
      <p class="muted" data-testid="runs-empty">
        {t('noRuns')}
      </p>
    );
  return (
    <div class="grid-scroll">
      <table class="data" data-testid="runs">
        <thead>
          <tr>
            <th>{t('slot')}</th>
            <th>{t('trigger')}</th>
            <th>{t('status')}</th>
            <th>{t('tasksPerRegion')}</th>
            <th>{t('answersAsked')}</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr data-testid="run-row">
              <td>{when(run.slot, lang)}</td>
              <td>{run.trigger}</td>
              <td>
                <StatusBadge status={run.status} />
              </td>
              <td>
                {run.regions.map((g) => (
                  <div>
                    <a href={paths.task(g.taskId)} onClick={onLink} data-testid="run-task">
                      {regionLabel(g.regionCode, t('noRegion'))}
                    </a>{' '}
                    {g.taskStatus && <StatusBadge status={g.taskStatus} />}
                    {g.error && <span class="error">{g.error}</span>}
                  </div>
                ))}
              </td>
              <td>
                {run.regions.map((g) => (
                  <div>
                    {g.samplesTaken ?? '—'}
                    {g.callsSaved ? ` (${t('callsSaved', { n: g.callsSaved })})` : ''}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
