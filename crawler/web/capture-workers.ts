/**
 * The capture's view into the page's workers (capture.ts): a page-level CDP
 * session never sees a worker's network, so each worker's own target is
 * attached and watched like the page. Messages to an attached target go
 * through `Target.sendMessageToTarget` on its parent session (Playwright's
 * sessions cannot address a flattened child session).
 */
import type { CDPSession, Page } from 'playwright';

/** Something that speaks CDP: the page's session, or a worker's through its parent session. */
export interface Cdp {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (params: never) => void): void;
}

/**
 * The sessions attached through `parent` (not flattened), each spoken to as a Cdp of its own.
 * A call to a worker that ends before it answers (a page loaded again ends its workers while
 * the capture attaches to them) fails when its session detaches: no reply would ever come.
 */
function children(parent: Cdp): (sessionId: string) => Cdp {
  const listenersOf = new Map<string, Map<string, ((params: never) => void)[]>>();
  const calls = new Map<
    number,
    { sessionId: string; resolve(v: unknown): void; reject(e: Error): void }
  >();
  let nextId = 1;
  parent.on('Target.detachedFromTarget', (p: { sessionId: string }) => {
    listenersOf.delete(p.sessionId);
    for (const [id, call] of calls)
      if (call.sessionId === p.sessionId) {
        calls.delete(id);
        call.reject(new Error('the worker ended before it answered'));
      }
  });
  parent.on('Target.receivedMessageFromTarget', (p: { sessionId: string; message: string }) => {
    const msg = JSON.parse(p.message) as {
      id?: number;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: { message: string };
    };
    if (msg.id !== undefined) {
      const call = calls.get(msg.id);
      calls.delete(msg.id);
      if (msg.error) call?.reject(new Error(msg.error.message));
      else call?.resolve(msg.result);
      return;
    }
    for (const l of listenersOf.get(p.sessionId)?.get(msg.method ?? '') ?? [])
      l(msg.params as never);
  });
  return (sessionId) => {
    const listeners = new Map<string, ((params: never) => void)[]>();
    listenersOf.set(sessionId, listeners);
    return {
      send: (method, params = {}) =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          calls.set(id, { sessionId, resolve, reject });
          parent
            .send('Target.sendMessageToTarget', {
              sessionId,
              message: JSON.stringify({ id, method, params }),
            })
            .catch((err: Error) => {
              calls.delete(id);
              reject(err);
            });
        }),
      on: (event, listener) => listeners.set(event, [...(listeners.get(event) ?? []), listener]),
    };
  };
}

/**
 * Watches the page's dedicated workers (`new Worker`): the page's own session
 * auto-attaches to each, those running now before the capture is handed out,
 * a later one as it starts (a site's worker starts with its page, long before
 * the send).
 */
export async function attachDedicatedWorkers(
  page: Cdp,
  watch: (cdp: Cdp) => Promise<void>,
): Promise<void> {
  const channel = children(page);
  const attaching: Promise<void>[] = [];
  page.on('Target.attachedToTarget', (p: { sessionId: string; targetInfo: { type: string } }) => {
    if (p.targetInfo.type !== 'worker') return;
    attaching.push(watch(channel(p.sessionId)).catch(() => undefined));
  });
  await page.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: false,
  });
  await Promise.all(attaching);
}

/**
 * Watches the network of the page's shared workers as well (a page-level
 * session never sees a worker's traffic, and Playwright does not expose
 * shared workers). A browser-level session discovers them; each one of this
 * page's context is attached and watched; messages to it go through
 * `Target.sendMessageToTarget` (Playwright's sessions cannot address a
 * flattened child session, and Chromium auto-attaches at browser level only
 * flattened). The workers running when the capture starts are watched before
 * it is handed out; one started later is watched a moment after it starts, so
 * a site whose worker starts with the page (Doubao) is covered from the send.
 */
export async function attachSharedWorkers(
  page: Page,
  contextId: string | undefined,
  watch: (cdp: Cdp) => Promise<void>,
  closers: (() => Promise<void>)[],
): Promise<void> {
  const browser = page.context().browser();
  if (!browser) return;
  let root: CDPSession;
  try {
    root = await browser.newBrowserCDPSession();
  } catch {
    return;
  }
  closers.push(async () => root.detach().catch(() => undefined));
  const channel = children(root as unknown as Cdp);
  const attaching: Promise<void>[] = [];
  const seen = new Set<string>();
  root.on(
    'Target.targetCreated',
    (p: { targetInfo: { targetId: string; type: string; browserContextId?: string } }) => {
      const { targetId, type, browserContextId } = p.targetInfo;
      // Only this page's own context: other accounts' workers live in theirs.
      if (type !== 'shared_worker' || browserContextId !== contextId || seen.has(targetId)) return;
      seen.add(targetId);
      const attached = root
        .send('Target.attachToTarget', { targetId, flatten: false })
        .then((r) => watch(channel((r as { sessionId: string }).sessionId)));
      attaching.push(attached.catch(() => undefined));
    },
  );
  // Announces the workers already running first: they are watched before the capture is handed out.
  await root.send('Target.setDiscoverTargets', { discover: true });
  await Promise.all(attaching);
}
