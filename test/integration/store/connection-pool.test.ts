/**
 * A burst of operations opens at most the bounded pool's connections on the
 * real MongoDB-wire server (services/shared/mongo-pool.ts), and a pool size
 * given in the URL wins.
 */
import t, { type Test } from 'tap';
import { acquireConnection, releaseConnection } from '../../../services/shared/mongo.js';
import { MAX_POOL_SIZE } from '../../../services/shared/mongo-pool.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';

/** Connections the pool opened while `reads` reads of 1,000 documents ran at once. */
async function openedByBurst(t: Test, url: string, reads: number): Promise<number> {
  const db = uniqueDbName('pool');
  const connection = await acquireConnection(url, db);
  t.teardown(async () => {
    await connection.dropDatabase().catch(() => undefined);
    await releaseConnection(url, db);
  });
  let opened = 0;
  connection.getClient().on('connectionCreated', () => (opened += 1));
  const docs = connection.collection('docs');
  await docs.insertMany(Array.from({ length: 1000 }, (_, i) => ({ i, text: 'x'.repeat(500) })));
  await Promise.all(Array.from({ length: reads }, () => docs.find({}).toArray()));
  return opened;
}

t.test('a burst opens no more than the bound', async (t) => {
  const opened = await openedByBurst(t, mongoUrl(), 300);
  t.ok(opened > 1, `the burst used several connections (${opened})`);
  t.ok(opened <= MAX_POOL_SIZE, `at most ${MAX_POOL_SIZE} (${opened})`);
});

t.test("the URL's maxPoolSize wins", async (t) => {
  const url = mongoUrl();
  const opened = await openedByBurst(t, `${url}${url.includes('?') ? '&' : '?'}maxPoolSize=3`, 30);
  t.ok(opened <= 3, `at most 3 (${opened})`);
});
