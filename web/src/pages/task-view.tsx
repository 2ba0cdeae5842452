/**
 * One task: live progress from the events stream, the prompt × platform grid,
 * the brand visibility charts over the answers so far with the insights
 * (discovered brands, citation opportunities), and the export files.
 */
import { useState } from 'preact/hooks';
import { ApiError, download } from '../api.js';
import { PATHS, pathTo } from '../../../services/shared/contracts/http-paths.js';
import { InsightTables } from '../components/insight-tables.js';
import { StatusBadge } from '../components/status-badge.js';
import { StatusGrid } from '../components/status-grid.js';
import { VisibilityPanel } from '../components/visibility-panel.js';
import { useT } from '../i18n.js';
import { useTaskProgress } from '../live.js';
import { useLiveVisibility } from '../live-visibility.js';
import { FINAL_TASK } from '../types.js';

const EXPORTS: { label: string; query: string; ext: string; references?: boolean }[] = [
  { label: 'CSV', query: 'format=csv', ext: 'csv' },
  { label: 'XLSX', query: 'format=xlsx', ext: 'xlsx' },
  { label: 'NDJSON', query: 'format=ndjson', ext: 'ndjson' },
  { label: 'CSV', query: 'format=csv&table=references', ext: 'csv', references: true },
];

export function TaskView({ taskId }: { taskId: string }) {
  const t = useT();
  const { view, live, error } = useTaskProgress(taskId);
  const [problem, setProblem] = useState<string | null>(null);
  const final = view !== null && FINAL_TASK.includes(view.status);
  const { visibility, error: visibilityError } = useLiveVisibility(
    taskId,
    view?.completedItems ?? 0,
    final,
  );
  const shownProblem = problem ?? visibilityError;

  const save = (query: string, ext: string) =>
    download(`${pathTo(PATHS.TASK_EXPORT, { taskId })}?${query}`, `${taskId}.${ext}`).catch(
      (e: ApiError) => setProblem(e.message),
    );

  if (!view) return <p>{error ?? t('loading')}</p>;
  const done = view.completedItems + view.failedItems;
  return (
    <section>
      <div class="row">
        <h1 class={view.name ? 'clip' : 'mono clip'} data-testid="task-title">
          {view.name ?? taskId}
        </h1>
        <StatusBadge status={view.status} />
        <span class={`pill ${live ? 'live' : ''}`} data-testid="live-state">
          {final ? t('finished') : live ? t('live') : '…'}
        </span>
      </div>
      {view.name && <p class="muted mono clip">{taskId}</p>}
      <div class="card">
        <progress max={view.totalItems} value={done} />
        <p data-testid="counters">
          {t('counters', {
            completed: view.completedItems,
            total: view.totalItems,
            failed: view.failedItems,
          })}
        </p>
        <div class="row wrap">
          <span>{t('exportLabel')}:</span>
          {EXPORTS.map((x) => (
            <button
              type="button"
              onClick={() => save(x.query, x.ext)}
              data-testid={`export-${x.query}`}
            >
              {x.references ? `${x.label} (${t('references')})` : x.label}
            </button>
          ))}
        </div>
        {shownProblem && <p class="error">{shownProblem}</p>}
      </div>
      <section class="card">
        <h2>{t('grid')}</h2>
        <StatusGrid taskId={taskId} list={view.subTaskList} />
      </section>
      {visibility && <VisibilityPanel visibility={visibility} soFar={!final} />}
      {visibility && <InsightTables taskId={taskId} visibility={visibility} />}
    </section>
  );
}
