/**
 * Delivers a crawler node's outcome reports to a live tasks node, and keeps a
 * report until one took it. A killed tasks node is still in the registry for
 * several seconds (until its heartbeats are missed), and a call sent to it
 * waits out the whole request timeout. So each call has its own short
 * timeout, and is given up at once when its node leaves the registry or comes
 * back as a new instance (restarted under the same node ID: the old process
 * will never answer). The next try goes to another tasks node when there is
 * one, the one that failed last being avoided for a while.
 *
 * Sending a report again is safe: the tasks node settles a report only under
 * its sub task's current lease token and clears the token in the same write,
 * so a report that was taken by a call whose answer was lost is dropped the
 * second time (and the tasks node mends the counts that call may have left).
 */
import type { ServiceBroker } from 'moleculer';

export interface ReportSenderOptions {
  /** The action that takes a batch of reports, e.g. `tasks.settleBatch`. */
  action: string;
  /** How long one call may take before it is tried elsewhere. */
  timeoutMs: number;
  /** Pause before the next try, doubling from `retryBaseMs` up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a node that failed a call is avoided while others are there. */
  avoidMs: number;
  /** Once the broker is stopping, sends that keep failing are given up after this long. */
  stopGraceMs: number;
}

export const REPORT_SENDING: ReportSenderOptions = {
  action: 'tasks.settleBatch',
  // A batch settles in tens of milliseconds; seconds mean the node is gone or stuck.
  timeoutMs: 3_000,
  retryBaseMs: 100,
  retryMaxMs: 2_000,
  avoidMs: 10_000,
  stopGraceMs: 10_000,
};

interface Target {
  nodeID: string;
  instanceID: string | undefined;
}

interface RegistryNode {
  id: string;
  available: boolean;
  instanceID?: string;
}
interface Endpoint {
  id: string;
  local: boolean;
  state: boolean;
}

/** Thrown when the node of a pending call left or restarted. */
class NodeGone extends Error {}

export function reportSender<T>(
  broker: ServiceBroker,
  o: ReportSenderOptions = REPORT_SENDING,
): (reports: T[]) => Promise<void> {
  const avoided = new Map<string, number>();
  /** When a send first failed after the broker began stopping; the grace counts from there. */
  let failingSinceStop: number | undefined;
  let turn = 0;
  /** Pending calls, each with the check that aborts it when its node is gone. */
  const watchers = new Set<() => void>();
  const onNodeChange = () => watchers.forEach((check) => check());
  for (const event of ['$node.disconnected', '$node.connected', '$node.updated'])
    broker.localBus.on(event, onNodeChange);

  const nodeOf = (nodeID: string): RegistryNode | undefined =>
    broker.registry.nodes.get(nodeID) as RegistryNode | undefined;

  const pick = (): Target | undefined => {
    const endpoints = (broker.registry.actions.get(o.action)?.endpoints ?? []) as Endpoint[];
    const live = endpoints.filter((e) => e.state && (e.local || nodeOf(e.id)?.available));
    if (live.length === 0) return undefined;
    const now = Date.now();
    const key = (e: Endpoint) => `${e.id}/${nodeOf(e.id)?.instanceID ?? ''}`;
    for (const [k, until] of avoided) if (until <= now) avoided.delete(k);
    const fresh = live.filter((e) => (avoided.get(key(e)) ?? 0) <= now);
    const pool = fresh.length > 0 ? fresh : live;
    const chosen = pool.find((e) => e.local) ?? pool[turn++ % pool.length]!;
    return { nodeID: chosen.id, instanceID: nodeOf(chosen.id)?.instanceID };
  };

  const gone = (target: Target) => {
    const node = nodeOf(target.nodeID);
    return !node || !node.available || node.instanceID !== target.instanceID;
  };

  const callOnce = (target: Target, reports: T[]) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (gone(target)) reject(new NodeGone(`tasks node ${target.nodeID} left or restarted`));
      };
      watchers.add(check);
      broker
        .call(o.action, { reports }, { nodeID: target.nodeID, timeout: o.timeoutMs })
        .then(() => resolve(), reject)
        .finally(() => watchers.delete(check));
    });

  return async (reports) => {
    for (let attempt = 0; ; attempt++) {
      const target = pick();
      try {
        if (!target) throw new NodeGone('no tasks node is available');
        await callOnce(target, reports);
        return;
      } catch (err) {
        if (!worthRetrying(err)) throw err;
        if (target)
          avoided.set(`${target.nodeID}/${target.instanceID ?? ''}`, Date.now() + o.avoidMs);
        if (stopping(broker)) {
          failingSinceStop ??= Date.now();
          if (Date.now() - failingSinceStop > o.stopGraceMs) throw err;
        }
        broker.logger.warn(
          `reports to ${target?.nodeID ?? 'tasks'} not taken (${(err as Error).message}); trying again`,
        );
        // The first retry goes out at once: another node, or the same one restarted.
        if (attempt > 0)
          await new Promise((r) =>
            setTimeout(r, Math.min(o.retryMaxMs, o.retryBaseMs * 2 ** (attempt - 1))),
          );
      }
    }
  };
}

/** Set by the broker once its services are being stopped (not in its typings). */
function stopping(broker: ServiceBroker): boolean {
  return (broker as unknown as { stopping?: boolean }).stopping === true;
}

/**
 * Anything but a refusal of the request itself: timeouts, lost or missing
 * nodes, and the tasks node's own failures (its database restarting) pass.
 * A 4xx other than "not found" (no such service yet) or "timeout" would be
 * refused the same way again.
 */
function worthRetrying(err: unknown): boolean {
  if (err instanceof NodeGone) return true;
  const e = err as { code?: unknown; retryable?: unknown };
  if (e.retryable === true) return true;
  const code = typeof e.code === 'number' ? e.code : 500;
  return code < 400 || code >= 500 || code === 404 || code === 408;
}
