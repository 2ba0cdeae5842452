/**
 * `npm start -- --demo` (bin/demo.ts) on the embedded service with every role
 * and its own sandbox: the sample batch's answers mention the team's brand
 * and its competitor, ranked, with cited sources naming them; a second demo run
 * against the same database takes the same demo user.
 */
import t from 'tap';
import { DEMO_SAMPLE, DEMO_USER_NAME, runDemo } from '../../../bin/demo.js';
import { startEmbedded } from '../../helpers/cluster.js';
import type { ResultData } from '../../../services/shared/contracts/http.js';

const svc = await startEmbedded(t, { SERVICES: 'all', SANDBOX_LATENCY_MS: '100' });

t.test('the demo shows the brand and a competitor, with positions and citations', async (t) => {
  const demo = await runDemo(svc.broker, svc.config);
  const token = (await svc.client.post('/api/business/auth/token', { apiKey: demo.apiKey })).body
    .data.accessToken as string;
  const res = await svc.client.get(`/api/business/monitor/task/result/${demo.taskId}`, token);
  t.equal(res.status, 200, res.text);
  const result = res.body.data as ResultData;
  t.equal(result.status, 'completed');
  t.equal(result.subTaskList.length, DEMO_SAMPLE.prompts.length * DEMO_SAMPLE.platforms.length);
  for (const sub of result.subTaskList) {
    const what = `${sub.platform} ${sub.mode}`;
    for (const keyword of ['Acme', 'Globex']) {
      const m = sub.mentions.find((x) => x.keyword === keyword);
      t.ok(m && m.count > 0 && m.position !== null, `${what} names ${keyword}, placed`);
    }
    if (sub.mode.includes('search')) t.not(sub.citationList.length, 0, `${what} cites sources`);
  }
  for (const keyword of ['Acme', 'Globex']) {
    t.ok(
      result.subTaskList.some((s) =>
        s.mentions.some((m) => m.keyword === keyword && m.inCitations),
      ),
      `a cited source names ${keyword}`,
    );
  }
  const positions = result.subTaskList.map(
    (s) => s.mentions.find((m) => m.keyword === 'Acme')?.position ?? null,
  );
  t.ok(
    new Set(positions).size > 1,
    `Acme is not placed alike in every answer: ${positions.join(', ')}`,
  );
  for (const row of result.visibility.rows) {
    t.equal(row.mentionRate, 1, `${row.keyword} on ${row.platform}: every answer names it`);
    t.not(row.averagePosition, null, `${row.keyword} on ${row.platform} has a position`);
  }
  t.ok(
    result.visibility.rows.some((r) => r.citationShare > 0),
    'the visibility counts citations that name a brand',
  );
});

t.test('a second demo run takes the same demo user', async (t) => {
  const before = await svc.broker.call<{ userId: number; name: string }[]>('users.listUsers');
  const demo = await runDemo(svc.broker, svc.config);
  const users = await svc.broker.call<{ userId: number; name: string }[]>('users.listUsers');
  t.same(
    users.filter((u) => u.name === DEMO_USER_NAME).map((u) => u.userId),
    [demo.userId],
    'one demo user',
  );
  t.equal(users.length, before.length, 'no user added');
  const token = await svc.client.post('/api/business/auth/token', { apiKey: demo.apiKey });
  t.equal(token.status, 200, 'the fresh key signs in');
});
