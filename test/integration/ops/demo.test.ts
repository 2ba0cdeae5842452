/**
 * `npm start -- --demo` (bin/demo.ts) on the embedded service with every role
 * and its own sandbox: the sample batch's answers mention the team's brand
 * and its competitor, ranked, with cited sources naming them; one prompt's
 * answers leave the brand out, and the printed output shows a discovered
 * competitor and an opportunity domain; a second demo run against the same
 * database takes the same demo user.
 */
import t from 'tap';
import { brandsFor } from '../../../sandbox/answers.js';
import { DEMO_SAMPLE, DEMO_USER_NAME, runDemo } from '../../../bin/demo.js';
import { startEmbedded } from '../../helpers/cluster.js';
import type { ResultData } from '../../../services/shared/contracts/http.js';

const svc = await startEmbedded(t, { SERVICES: 'all', SANDBOX_LATENCY_MS: '100' });

t.test('the demo shows the brand and a competitor, with positions and citations', async (t) => {
  const printed: string[] = [];
  const demo = await runDemo(svc.broker, svc.config, (line) => printed.push(line));
  const token = (await svc.client.post('/api/business/auth/token', { apiKey: demo.apiKey })).body
    .data.accessToken as string;
  const res = await svc.client.get(`/api/business/monitor/task/result/${demo.taskId}`, token);
  t.equal(res.status, 200, res.text);
  const result = res.body.data as ResultData;
  t.equal(result.status, 'completed');
  t.equal(result.subTaskList.length, DEMO_SAMPLE.prompts.length * DEMO_SAMPLE.platforms.length);
  /** The prompt whose answers leave Acme out (the sandbox's own choice of brands). */
  const [without] = DEMO_SAMPLE.prompts.filter((p) => !brandsFor(p).some((b) => b.name === 'Acme'));
  t.ok(without, 'one prompt leaves Acme out');
  for (const sub of result.subTaskList) {
    const what = `${sub.platform} ${sub.mode} ${sub.prompt}`;
    for (const keyword of sub.prompt === without ? ['Globex'] : ['Acme', 'Globex']) {
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
  const asked = DEMO_SAMPLE.prompts.length;
  for (const row of result.visibility.rows) {
    const expected = row.keyword === 'Acme' ? (asked - 1) / asked : 1;
    t.equal(row.mentionRate, expected, `${row.keyword} on ${row.platform}: its answers name it`);
    t.not(row.averagePosition, null, `${row.keyword} on ${row.platform} has a position`);
  }
  t.ok(
    result.visibility.rows.some((r) => r.citationShare > 0),
    'the visibility counts citations that name a brand',
  );

  // The printed insights: a brand nobody watches, and a source cited where Acme is missing.
  const { discovered, opportunities } = result.visibility;
  t.ok(discovered.length > 0 && opportunities.length > 0, 'the task has both insights');
  const brandsLine = printed.indexOf('Discovered competitors (recommended, not in your keywords):');
  t.match(
    printed[brandsLine + 1],
    new RegExp(`^  ${discovered[0]!.name}: ${discovered[0]!.answers} answers \\(`),
    'the most recommended unwatched brand is printed',
  );
  t.ok(
    discovered.some((d) => d.name === 'Initech'),
    'Initech, which the answers rank first and nobody watches, is discovered',
  );
  const sourcesLine = printed.findIndex((l) => l.startsWith('Citation opportunities'));
  const top = opportunities[0]!;
  t.ok(top.answers > 0, 'cited in answers without Acme');
  t.equal(
    printed[sourcesLine + 1],
    `  ${top.domain}: ${top.answers} answers without you, ${top.userAnswers} with you; ${top.pages[0]!.url}`,
    'the top opportunity domain is printed with a page',
  );
  t.ok(sourcesLine > brandsLine && brandsLine > 0, 'both printed, after the answers');
});

t.test('a second demo run takes the same demo user', async (t) => {
  const before = await svc.broker.call<{ userId: number; name: string }[]>('users.listUsers');
  const demo = await runDemo(svc.broker, svc.config, () => {});
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
