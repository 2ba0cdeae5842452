/**
 * Live progress of one task from `GET …/task/{taskId}/events` (EventSource:
 * the token goes as ?access_token=, the only route that takes it so). The
 * stream ends after `done`; a broken stream is reopened after a pause and
 * starts again from a fresh snapshot, so nothing is missed.
 */
import { useEffect, useState } from 'preact/hooks';
import { PATHS, pathTo } from '../../services/shared/contracts/http-paths.js';
import { applyDone, applySubTask } from '../../services/shared/task-progress.js';
import { session } from './session.js';
import type { TaskDone, SubTaskChange, TaskStatusView } from './types.js';

const REOPEN_MS = 5000;

export interface Live {
  view: TaskStatusView | null;
  /** The stream is open and the task not final. */
  live: boolean;
  error: string | null;
}

export function useTaskProgress(taskId: string): Live {
  const [state, setState] = useState<Live>({ view: null, live: false, error: null });

  useEffect(() => {
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let finished = false;

    const open = () => {
      const url = `${pathTo(PATHS.TASK_EVENTS, { taskId })}?access_token=${encodeURIComponent(session.token() ?? '')}`;
      source = new EventSource(url);
      source.addEventListener('snapshot', (e) => {
        const view = JSON.parse((e as MessageEvent<string>).data) as TaskStatusView;
        setState({ view, live: true, error: null });
      });
      source.addEventListener('subtask', (e) => {
        const change = JSON.parse((e as MessageEvent<string>).data) as SubTaskChange;
        setState((s) => (s.view ? { ...s, view: applySubTask(s.view, change) } : s));
      });
      source.addEventListener('done', (e) => {
        const done = JSON.parse((e as MessageEvent<string>).data) as TaskDone;
        finished = true;
        source?.close();
        setState((s) => ({ ...s, live: false, view: s.view ? applyDone(s.view, done) : s.view }));
      });
      source.onerror = () => {
        if (finished) return;
        source?.close();
        setState((s) => ({ ...s, live: false, error: s.view ? null : 'events stream refused' }));
        timer = setTimeout(open, REOPEN_MS);
      };
    };
    open();
    return () => {
      finished = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [taskId]);

  return state;
}
