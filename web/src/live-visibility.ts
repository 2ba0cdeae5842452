/**
 * The task's brand visibility over the answers so far, kept current while the
 * task runs: fetched again when the count of completed sub tasks changes, at
 * most every REFRESH_MS (a trailing fetch catches the last change), and once
 * more when the task is final. Only the newest answer is kept, so a slow
 * earlier response cannot overwrite a later one.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { get } from './api.js';
import { PATHS, pathTo } from '../../services/shared/contracts/http-paths.js';
import type { Visibility } from './types.js';

const REFRESH_MS = 2000;

export function useLiveVisibility(taskId: string, completed: number, final: boolean) {
  const [visibility, setVisibility] = useState<Visibility | null>(null);
  const [error, setError] = useState<string | null>(null);
  const lastFetch = useRef(0);
  const newest = useRef(0);

  useEffect(() => {
    if (completed === 0 && !final) return;
    const wait = final ? 0 : Math.max(0, lastFetch.current + REFRESH_MS - Date.now());
    const timer = setTimeout(() => {
      lastFetch.current = Date.now();
      const request = ++newest.current;
      get<Visibility>(pathTo(PATHS.TASK_VISIBILITY, { taskId })).then(
        (v) => request === newest.current && setVisibility(v),
        (e: Error) => request === newest.current && setError(e.message),
      );
    }, wait);
    return () => clearTimeout(timer);
  }, [taskId, completed, final]);

  return { visibility, error };
}
