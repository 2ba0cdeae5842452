/**
 * The life of a node process: start the broker, announce readiness on stdout
 * (`READY node=… services=… api=http://…`, which tests and scripts wait for),
 * and stop cleanly on SIGINT/SIGTERM. Returns the function that stops it.
 */
import type { ServiceBroker } from 'moleculer';
import type { Config } from '../services/shared/config.js';

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
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

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
