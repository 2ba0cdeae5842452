/**
 * The collector store on the MongoDB-wire server, on a clock the test moves:
 * running totals never forget, the recent window does; a site whose recent
 * attempts all failed with drift is drifting and listed first; filters; the
 * metrics sums over accounts.
 */
import t from 'tap';
import mongoose from 'mongoose';
import { collectorModels } from '../../../services/tasks/collectors/models.js';
import { CollectorStore, RECENT_MINUTES } from '../../../services/tasks/collectors/store.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';

const conn = await mongoose
  .createConnection(mongoUrl(), { dbName: uniqueDbName('collectors') })
  .asPromise();
t.teardown(async () => {
  await conn.dropDatabase();
  await conn.close();
});
let now = 1_767_225_600_000;
const store = new CollectorStore(collectorModels(conn), { now: () => now });
await store.ensureIndexes();

const kimi = { platform: 'kimi', regionCode: '310100', accountId: 'acc_kimi_1' };
const doubao = { platform: 'doubao', regionCode: null, accountId: 'acc_doubao_1' };
const MISSING = 'control_missing: kimi deep-thinking';

t.test('a site that starts drifting stands out within the window', async (t) => {
  await store.record([
    { ...kimi, outcome: 'answered' },
    { ...kimi, outcome: 'answered' },
    { ...doubao, outcome: 'answered' },
    { ...doubao, outcome: 'login_wall', message: 'login wall: HTTP 401 on the chat call (doubao)' },
  ]);
  const answeredAt = now;
  let data = await store.health({});
  t.same(
    data.collectors.map((c) => [c.platform, c.drifting]),
    [
      ['doubao', false],
      ['kimi', false],
    ],
    'by platform while none drifts',
  );

  now += (RECENT_MINUTES + 1) * 60_000;
  await store.record([
    { ...kimi, outcome: 'drift', message: MISSING },
    { ...kimi, outcome: 'drift', message: MISSING },
    { ...kimi, outcome: 'rate_limited', message: 'rate or quota limit on kimi: busy' },
  ]);
  data = await store.health({});
  const [first, second] = data.collectors;
  t.match(first, {
    ...kimi,
    tried: 5,
    answered: 2,
    lastSuccessAt: answeredAt,
    lastAttemptAt: now,
    lastFailure: { outcome: 'rate_limited', at: now },
    drifting: true,
  });
  t.same(first!.recent.outcomes, {
    answered: 0,
    login_wall: 0,
    captcha: 0,
    rate_limited: 1,
    drift: 2,
    refused: 0,
    timeout: 0,
    error: 0,
  });
  t.equal(first!.recent.tried, 3, 'the answers left the window');
  t.same(
    first!.recent.signals.map((s) => [s.outcome, s.signal, s.count]),
    [
      ['drift', MISSING, 2],
      ['rate_limited', 'rate or quota limit on kimi: busy', 1],
    ],
    'most frequent first',
  );
  t.match(second, { platform: 'doubao', drifting: false, recent: { tried: 0 } });

  t.same(
    (await store.health({ platform: 'doubao' })).collectors.map((c) => c.platform),
    ['doubao'],
  );
  t.same(
    (await store.health({ regionCode: '310100' })).collectors.map((c) => c.platform),
    ['kimi'],
  );

  await store.record([{ ...kimi, outcome: 'answered' }]);
  t.equal((await store.health({ platform: 'kimi' })).collectors[0]!.drifting, false, 'recovered');
});

t.test('the metrics: totals per platform, region and outcome, summed over accounts', async (t) => {
  await store.record([{ ...kimi, accountId: 'acc_kimi_2', outcome: 'drift', message: MISSING }]);
  t.same(await store.outcomeCounts(), [
    { platform: 'doubao', region: 'any', outcome: 'answered', count: 1 },
    { platform: 'doubao', region: 'any', outcome: 'login_wall', count: 1 },
    { platform: 'kimi', region: '310100', outcome: 'answered', count: 3 },
    { platform: 'kimi', region: '310100', outcome: 'drift', count: 3 },
    { platform: 'kimi', region: '310100', outcome: 'rate_limited', count: 1 },
  ]);
});

t.test('an answer taken from the page counts as stream drift the driver survived', async (t) => {
  const yuanbao = { platform: 'yuanbao', regionCode: null, accountId: 'acc_yuanbao_1' };
  await store.record([
    { ...yuanbao, outcome: 'answered' },
    { ...yuanbao, outcome: 'answered', fromPage: true },
  ]);
  const [row] = (await store.health({ platform: 'yuanbao' })).collectors;
  t.match(row, { answered: 2, answeredFromPage: 1, drifting: false });
  t.equal(row!.outcomes.drift, 0, 'an answer, not a failed attempt');
  const [kimiRow] = (await store.health({ platform: 'kimi' })).collectors;
  t.equal(kimiRow!.answeredFromPage, 0, 'none where every answer came from the stream');
});
