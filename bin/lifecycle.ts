/**
 * The life of a node process: start the broker, announce readiness on stdout
 * (`READY node=… services=… api=http://…`, which tests and scripts wait for),
 * and stop cleanly on SIGINT/SIGTERM. The first signal drains: every local
 * service with a `drain(now)` method finishes or hands back its work while the
 * node is still fully connected (`DRAINING node=…` on stdout), then the broker
 * stops (`DRAINED node=… in … ms`). A second signal cuts the drain short.
 * Returns the function that stops at once.
 */
import type { Service, ServiceBroker } from 'moleculer';
import type { Config } from '../services/shared/config.js';
import { countUnhandledRejections } from '../services/shared/unhandled-rejections.js';

/** A service that holds work to finish or hand back before its node stops. */
interface Draining {
  drain(now: AbortSignal): Promise<void>;
}

const drains = (s: Service): s is Service & Draining =>
  typeof (s as Partial<Draining>).drain === 'function';

export async function runNode(
  broker: ServiceBroker,
  config: Config,
): Promise<(code: number) => Promise<void>> {
  let stopping = false;
  const stop = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await broker.stop().catch((err: unknown) => console.error(err));
    process.exit(code);
  };
  const cutShort = new AbortController();
  let draining = false;
  const onSignal = (signal: string) => {
    if (draining || stopping) {
      cutShort.abort();
      return;
    }
    draining = true;
    const since = Date.now();
    console.log(`DRAINING node=${config.nodeId} on ${signal} (again to stop at once)`);
    void Promise.all(broker.services.filter(drains).map((s) => s.drain(cutShort.signal)))
      .catch((err: unknown) => console.error('drain failed:', err))
      .then(() => {
        console.log(`DRAINED node=${config.nodeId} in ${Date.now() - since} ms`);
        return stop(0);
      });
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  countUnhandledRejections(broker);
  try {
    await broker.start();
  } catch (err) {
    console.error(`start failed: ${(err as Error).message}`);
    await stop(1);
  }
  const api = broker.getLocalService('api');
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const apiUrl = api ? ` api=http://${host}:${api.settings.port}` : '';
  console.log(`READY node=${config.nodeId} services=${config.services.join(',')}${apiUrl}`);
  return stop;
}
