/**
 * One prompt on one platform: the chosen sub task and, when the task asked the
 * platform over both channels, the other channel's answer beside it.
 */
import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { PATHS, pathTo } from '../../../services/shared/contracts/http-paths.js';
import { AnswerCard } from '../components/answer-card.js';
import { useT } from '../i18n.js';
import { onLink, paths } from '../router.js';
import type { KeywordGroup, SubTaskResult, TaskStatusView, Visibility } from '../types.js';

export function AnswerView({ taskId, subTaskId }: { taskId: string; subTaskId: string }) {
  const t = useT();
  const [subs, setSubs] = useState<SubTaskResult[] | null>(null);
  const [groups, setGroups] = useState<KeywordGroup[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const result = (id: string) =>
      get<SubTaskResult>(pathTo(PATHS.SUBTASK_RESULT, { taskId, subTaskId: id }));
    (async () => {
      const [chosen, status, visibility] = await Promise.all([
        result(subTaskId),
        get<TaskStatusView>(pathTo(PATHS.TASK_STATUS, { taskId })),
        get<Visibility>(pathTo(PATHS.TASK_VISIBILITY, { taskId })),
      ]);
      setGroups(visibility.groups);
      const others = status.subTaskList.filter(
        (s) =>
          s.subTaskId !== chosen.subTaskId &&
          s.prompt === chosen.prompt &&
          s.platform === chosen.platform &&
          s.channel !== chosen.channel,
      );
      const siblings = await Promise.all(others.map((s) => result(s.subTaskId)));
      // api first, then web, whichever was opened.
      setSubs(
        [chosen, ...siblings].sort((a, b) => (a.channel ?? '').localeCompare(b.channel ?? '')),
      );
    })().catch((e: Error) => setError(e.message));
  }, [taskId, subTaskId]);

  return (
    <section>
      <p>
        <a href={paths.task(taskId)} onClick={onLink}>
          ← {t('backToTask')}
        </a>
      </p>
      {error && <p class="error">{error}</p>}
      {!subs && !error && <p>{t('loading')}</p>}
      {subs && (
        <>
          <h1 class="prompt-title">{subs[0]!.prompt}</h1>
          <div class={subs.length > 1 ? 'side-by-side' : ''}>
            {subs.map((s) => (
              <AnswerCard sub={s} groups={groups} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
