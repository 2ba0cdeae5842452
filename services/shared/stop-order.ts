/**
 * The one order in which a node process stops (docs/operations.md, "Stopping"):
 *
 * 1. Stop taking work. Before any service's `stopped`, every local service
 *    with a `quiesce()` method stops what brings in new work: the api stops
 *    listening, the scheduler its passes and elections, the crawler node takes
 *    no more leases, the periodic jobs stop. Moleculer stops services all at
 *    once; without this step one service could still start work (a dispatch
 *    pass, a requeue) while another was already closing the connection under it.
 * 2. Let what is under way settle. Each service's `stopped` awaits its own
 *    in-flight work, up to STOP_SETTLE_MS (the crawler node hands back its
 *    leases through the tasks service, which still answers).
 * 3. Close the shared MongoDB connection once: the last service to let go
 *    closes it, after the operations still on the wire (services/shared/mongo.ts).
 */
import type { Middleware, Service, ServiceBroker } from 'moleculer';

/** How long a service's stop waits for its own work in flight. */
export const STOP_SETTLE_MS = 5_000;

interface Quiescing {
  quiesce(): unknown;
}

const quiesces = (s: Service): s is Service & Quiescing =>
  typeof (s as Partial<Quiescing>).quiesce === 'function';

/** Resolves once every piece of work settled (fulfilled or not), or after `timeoutMs`. */
export async function settleWithin(timeoutMs: number, ...work: Promise<unknown>[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(work),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}

/** Step 1 as a broker middleware: its `stopping` hook runs before the services' `stopped`. */
export const stopOrder: Middleware = {
  async stopping(broker: ServiceBroker) {
    await Promise.all(
      broker.services.filter(quiesces).map(async (s) => {
        try {
          await s.quiesce();
        } catch (err) {
          s.logger.warn('stopping to take work failed:', err);
        }
      }),
    );
  },
};
