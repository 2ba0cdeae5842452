/**
 * Starts the service in-process (the embedded default) on its own database and
 * a free port, with teardown registered on the tap test.
 */
import type { ServiceBroker } from 'moleculer';
import mongoose from 'mongoose';
import { createBroker } from '../../services/index.js';
import { loadConfig, type Config } from '../../services/shared/config.js';
import type { Clock } from '../../services/shared/clock.js';
import { Client } from './http.js';
import { mongoUrl, uniqueDbName } from './servers.js';
import { chromiumPath } from '../../infra/processes.js';

export interface TapLike {
  teardown(fn: () => unknown): void;
  name: string;
}

export interface Embedded {
  broker: ServiceBroker;
  config: Config;
  client: Client;
  /** Creates a user with an API key and returns a fresh access token for it. */
  newUser(name?: string): Promise<{ userId: number; apiKey: string; token: string }>;
  /** A direct connection to the test database, for asserting what is stored. */
  db(): Promise<mongoose.Connection>;
}

export async function startEmbedded(
  t: TapLike,
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<Embedded> {
  const config = loadConfig({
    MONGO_URL: mongoUrl(),
    MONGO_DB: uniqueDbName(t.name),
    PORT: '0',
    LOG_LEVEL: 'warn',
    // API-level tests keep sub tasks pending; execution tests select every role.
    SERVICES: 'api,tasks,users',
    RATE_LIMIT_RPS: '1000',
    RATE_LIMIT_BURST: '1000',
    CHROMIUM_PATH: chromiumPath(),
    ...env,
  });
  const broker = await createBroker(config, config.services, clock);
  await broker.start();
  const port = broker.getLocalService('api')!.settings.port as number;
  const client = new Client(`http://127.0.0.1:${port}`);
  let conn: mongoose.Connection | undefined;

  t.teardown(async () => {
    const c =
      conn ??
      (await mongoose.createConnection(config.mongoUrl, { dbName: config.mongoDb }).asPromise());
    // The broker first: a timer of a running service must not meet a dropped collection.
    await broker.stop();
    await c.dropDatabase().catch(() => undefined);
    await c.close();
  });

  return {
    broker,
    config,
    client,
    async newUser(name = 'user') {
      const user = await broker.call<{ userId: number }, object>('users.createUser', { name });
      const key = await broker.call<{ apiKey: string }, object>('users.createApiKey', {
        userId: user.userId,
      });
      const res = await client.post('/api/business/auth/token', { apiKey: key.apiKey });
      if (res.status !== 200) throw new Error(`token exchange failed: ${res.text}`);
      return {
        userId: user.userId,
        apiKey: key.apiKey,
        token: res.body.data.accessToken as string,
      };
    },
    async db() {
      conn ??= await mongoose
        .createConnection(config.mongoUrl, { dbName: config.mongoDb })
        .asPromise();
      return conn;
    },
  };
}

/** Counts the documents of every collection, to prove a rejected request stored nothing. */
export async function snapshotCounts(conn: mongoose.Connection): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of ['tasks', 'subtasks', 'users', 'apikeys']) {
    counts[name] = await conn.collection(name).countDocuments();
  }
  return counts;
}
