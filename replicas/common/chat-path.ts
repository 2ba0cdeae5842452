/**
 * The start page moves (drift.ts: chat_path_redirect, chat_path_moved): a
 * site serves its chat at a new path, and the path a driver documents either
 * redirects there or is gone. The routes a replica puts before its own:
 * - chat_path_redirect: the documented entry answers a redirect to the new
 *   path (its query kept), which serves the chat page;
 * - chat_path_moved: the documented entry is a 404 page; the origin root
 *   serves the chat page itself or redirects to the new path, as the replica
 *   chooses. A site whose entry is the root cannot lose it that way: its root
 *   becomes a landing page whose 开始对话 link leads to the new path.
 * With both, the redirect wins (the old path still answers).
 */
import type { ServerResponse } from 'node:http';
import { hasDrift, type Drifts } from './drift.js';
import { redirect, sendHtml, type Handler, type Route } from './site.js';

export interface ChatPaths {
  /** The paths the driver's documented entry opens (its start path, with a trailing slash or not). */
  entry: readonly string[];
  /** The chat page's new path. */
  moved: string;
  /** The replica's own chat page (its logged-out form included). */
  page: Handler;
  /** chat_path_moved, an entry below the root: the root serves the chat page, or redirects. */
  root: 'page' | 'redirect';
  /** The site's name on its landing page. */
  title: string;
}

const notFound = (res: ServerResponse) =>
  sendHtml(
    res,
    '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>404</title></head>' +
      '<body><main><h1>404</h1><p>页面不存在 · Page not found</p></main></body></html>',
    404,
  );

const landing = (title: string, to: string) =>
  `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title></head>
<body><header><strong>${title}</strong> <nav><a href="${to}">开始对话</a></nav></header>
<main><h1>${title}</h1><p>新一代智能助手，随时为你解答。</p></main></body></html>`;

/** The routes the moved chat path puts in front of the replica's own; none without its drift. */
export function chatPathRoutes(drifts: Drifts, p: ChatPaths): Route[] {
  const moved: Route = { method: 'GET', path: p.moved, handle: p.page };
  const at = (path: string, handle: Handler): Route => ({ method: 'GET', path, handle });
  if (hasDrift(drifts, 'chat_path_redirect'))
    return [
      ...p.entry.map((e) => at(e, (_q, res, url) => redirect(res, p.moved + url.search))),
      moved,
    ];
  if (!hasDrift(drifts, 'chat_path_moved')) return [];
  if (p.entry.includes('/'))
    return [at('/', (_q, res) => sendHtml(res, landing(p.title, p.moved))), moved];
  const root =
    p.root === 'page' ? p.page : (_q: unknown, res: ServerResponse) => redirect(res, p.moved);
  return [...p.entry.map((e) => at(e, (_q, res) => notFound(res))), at('/', root), moved];
}
