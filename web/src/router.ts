/**
 * A small history router: the routes below are the ones the api serves
 * index.html for (services/api/routes/dashboard.ts CLIENT_ROUTES).
 */
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { page: 'tasks' }
  | { page: 'signin' }
  | { page: 'new' }
  | { page: 'operator' }
  | { page: 'collectors' }
  | { page: 'monitors' }
  | { page: 'monitor'; monitorId: string }
  | { page: 'task'; taskId: string }
  | { page: 'answer'; taskId: string; subTaskId: string };

export function parseRoute(path: string): Route {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'signin') return { page: 'signin' };
  if (parts[0] === 'new') return { page: 'new' };
  if (parts[0] === 'operator')
    return parts[1] === 'collectors' ? { page: 'collectors' } : { page: 'operator' };
  if (parts[0] === 'monitors') {
    return parts[1] ? { page: 'monitor', monitorId: parts[1] } : { page: 'monitors' };
  }
  if (parts[0] === 'tasks' && parts[1]) {
    if (parts[2] === 'answer' && parts[3]) {
      return { page: 'answer', taskId: parts[1], subTaskId: parts[3] };
    }
    return { page: 'task', taskId: parts[1] };
  }
  return { page: 'tasks' };
}

export const paths = {
  tasks: () => '/',
  signin: () => '/signin',
  newBatch: () => '/new',
  operator: () => '/operator',
  collectors: () => '/operator/collectors',
  monitors: () => '/monitors',
  monitor: (monitorId: string) => `/monitors/${encodeURIComponent(monitorId)}`,
  task: (taskId: string) => `/tasks/${encodeURIComponent(taskId)}`,
  answer: (taskId: string, subTaskId: string) =>
    `/tasks/${encodeURIComponent(taskId)}/answer/${encodeURIComponent(subTaskId)}`,
};

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname));
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return route;
}

/** Same-app links: a click navigates without a reload; modified clicks keep the browser's way. */
export function onLink(e: MouseEvent): void {
  const a = (e.currentTarget as HTMLAnchorElement | null) ?? null;
  if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute('href') ?? '/');
}
