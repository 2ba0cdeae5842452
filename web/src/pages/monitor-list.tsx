/** The caller's monitors with their schedule, where they ask, their last run and their next one. */
import { useContext, useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { PATHS, pathTo } from '../../../services/shared/contracts/http-paths.js';
import { Pager } from '../components/pager.js';
import { StatusBadge } from '../components/status-badge.js';
import { platformLabel, when } from '../format.js';
import { LangContext, useT } from '../i18n.js';
import type { Monitor, MonitorPage, Run, RunPage } from '../monitor-types.js';
import { scheduleText } from '../monitor-text.js';
import { onLink, paths } from '../router.js';

const SIZE = 20;

export function MonitorList() {
  const t = useT();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<MonitorPage | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    get<MonitorPage>(`${PATHS.MONITORS}?page=${page}&size=${SIZE}`).then(setData, (e: Error) =>
      setError(e.message),
    );
  }, [page]);

  const pages = data ? Math.max(1, Math.ceil(data.total / SIZE)) : 1;
  return (
    <section>
      <h1>{t('monitors')}</h1>
      {error && <p class="error">{error}</p>}
      {!data && !error && <p>{t('loading')}</p>}
      {data && data.monitors.length === 0 && <p data-testid="monitors-empty">{t('noMonitors')}</p>}
      {data && data.monitors.length > 0 && (
        <ul class="tasks">
          {data.monitors.map((m) => (
            <MonitorRow monitor={m} />
          ))}
        </ul>
      )}
      {data && pages > 1 && <Pager page={page} pages={pages} onPage={setPage} />}
    </section>
  );
}

function MonitorRow({ monitor: m }: { monitor: Monitor }) {
  const t = useT();
  const { lang } = useContext(LangContext);
  // The list carries no run: each row reads its newest one.
  const [last, setLast] = useState<Run | null | undefined>(undefined);
  useEffect(() => {
    get<RunPage>(`${pathTo(PATHS.MONITOR_RUNS, { monitorId: m.monitorId })}?size=1`).then(
      (p) => setLast(p.runs[0] ?? null),
      () => setLast(null),
    );
  }, [m.monitorId]);
  return (
    <li class="card" data-testid="monitor-row">
      <a href={paths.monitor(m.monitorId)} onClick={onLink}>
        <strong>{m.name}</strong>
      </a>
      <span class={m.enabled ? '' : 'muted'}>{m.enabled ? t('enabled') : t('paused')}</span>
      <span>
        {t('schedule')}: {scheduleText(m.schedule)}
      </span>
      <p class="muted clip">
        {m.platforms.map(platformLabel).join(', ')} ·{' '}
        {m.regionCodes.length > 0 ? m.regionCodes.join(', ') : t('noRegion')}
      </p>
      <p data-testid="monitor-last-run">
        {t('lastRun')}:{' '}
        {last === undefined ? (
          t('loading')
        ) : last === null ? (
          t('notRunYet')
        ) : (
          <>
            <StatusBadge status={last.status} /> {when(last.finishedAt ?? last.createdAt, lang)}
          </>
        )}
      </p>
      <p>
        {t('nextDue')}: {m.nextDueAt ? when(m.nextDueAt, lang) : t('paused')}
      </p>
    </li>
  );
}
