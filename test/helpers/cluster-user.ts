/** A user of a cluster started as processes: created with the admin CLI, signed in over HTTP. */
import type { Client } from './http.js';
import { runProcess } from '../../infra/processes.js';
import { until } from './wait.js';

/** Creates a user through `bin/admin.ts` and returns an access token once the api issues one. */
export async function clusterUserToken(
  client: Client,
  env: Record<string, string>,
  name: string,
): Promise<string> {
  const created = await runProcess('bin/admin.ts', ['create-user', '--name', name, '--json'], env);
  if (created.code !== 0) throw new Error(created.output);
  const { apiKey } = JSON.parse(created.output.trim()) as { apiKey: string };
  return until('a token from the cluster', async () => {
    const r = await client.post('/api/business/auth/token', { apiKey });
    return r.status === 200 ? (r.body.data.accessToken as string) : undefined;
  });
}
