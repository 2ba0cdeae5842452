/**
 * The request a piece of api work belongs to, carried through awaits: the
 * backend passes its id on as the Moleculer `requestID` of every action it
 * calls, so the services' log lines name the same request as the client's
 * `X-Request-Id`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

export function inRequest<T>(requestId: string, work: () => Promise<T>): Promise<T> {
  return scope.run(requestId, work);
}

/** The id of the request being served; undefined outside one (timers, events). */
export function currentRequestId(): string | undefined {
  return scope.getStore();
}
