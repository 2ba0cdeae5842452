/**
 * A process cluster whose crawler nodes hold credentials for the twelve
 * vendors' stand-ins (`<PLATFORM>_API_KEY` / `_BASE_URL`). `extraEnv` is the
 * seam for more crawler configuration (e.g. regional proxies, regions).
 */
import { startCluster, type ClusterOptions } from './cluster-processes.js';
import type { TapLike } from './cluster.js';
import { until } from './wait.js';
import { startPlatformStandins, standinEnv, STANDIN_PLATFORMS } from '../standins/index.js';

const M = '/api/business/monitor';

export async function platformsCluster(
  t: TapLike,
  extraEnv: Record<string, string> = {},
  options: ClusterOptions = {},
) {
  const standins = await startPlatformStandins();
  t.teardown(() => Promise.all([...standins.values()].map((s) => s.server.close())));
  const cluster = await startCluster(t, {
    crawlers: 2,
    crawlerCapacity: 8,
    ...options,
    env: { ...standinEnv(standins), ...extraEnv },
  });
  // Adverts reach the api node with the crawler nodes' INFO packets.
  await until('all twelve platforms available', async () => {
    const res = await cluster.client.get(`${M}/platforms`, cluster.token);
    const list = res.body.data as { platform: string; available: boolean | null }[];
    return STANDIN_PLATFORMS.every((p) => list.find((x) => x.platform === p)?.available === true)
      ? true
      : undefined;
  });
  return { cluster, standins };
}
