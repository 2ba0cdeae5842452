/** The caller's tasks, newest first, with a status filter and paging (spec 4.5). */
import { useContext, useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';
import { Pager } from '../components/pager.js';
import { StatusBadge } from '../components/status-badge.js';
import { platformLabel, shortId, when } from '../format.js';
import { LangContext, useT } from '../i18n.js';
import { onLink, paths } from '../router.js';
import { TASK_STATUSES, type TaskPage } from '../types.js';

const SIZE = 10;

export function TaskList() {
  const t = useT();
  const { lang } = useContext(LangContext);
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<TaskPage | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const q = new URLSearchParams({ page: String(page), size: String(SIZE) });
    if (status) q.set('status', status);
    get<TaskPage>(`${PATHS.TASK_LIST}?${q}`).then(setData, (e: Error) => setError(e.message));
  }, [status, page]);

  const pages = data ? Math.max(1, Math.ceil(data.total / SIZE)) : 1;
  return (
    <section>
      <div class="row">
        <h1>{t('tasks')}</h1>
        <label class="inline">
          {t('status')}
          <select
            name="status"
            value={status}
            onChange={(e) => {
              setStatus(e.currentTarget.value);
              setPage(1);
            }}
          >
            <option value="">{t('all')}</option>
            {TASK_STATUSES.map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </label>
      </div>
      {error && <p class="error">{error}</p>}
      {!data && !error && <p>{t('loading')}</p>}
      {data && data.tasks.length === 0 && <p>{t('noTasks')}</p>}
      {data && data.tasks.length > 0 && (
        <ul class="tasks">
          {data.tasks.map((task) => (
            <li class="card" data-testid="task-row">
              <a href={paths.task(task.taskId)} onClick={onLink} class="mono">
                {shortId(task.taskId)}
              </a>
              {task.name && (
                <strong class="clip" data-testid="task-name">
                  {task.name}
                </strong>
              )}
              <StatusBadge status={task.status} />
              <span class="muted">{when(task.createdAt, lang)}</span>
              <span>
                {task.completedItems + task.failedItems}/{task.totalItems}
              </span>
              <p class="clip">{task.prompts.join(' · ')}</p>
              <p class="muted clip">{task.platforms.map(platformLabel).join(', ')}</p>
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={page} pages={pages} onPage={setPage} />}
    </section>
  );
}
