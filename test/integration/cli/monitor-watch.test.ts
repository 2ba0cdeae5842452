/**
 * `aimon monitor watch <monitor> <name>` as a child process against the
 * embedded service and the sandbox (issue 36): after a run, `monitor trends`
 * lists the brands nobody watched; watching one by the monitor's id or its
 * name makes it a keyword (a repeat changes nothing and says so), a refused
 * name prints every broken rule with exit 1, and the next run measures it.
 */
import t from 'tap';
import { aimon, startCliService } from '../../helpers/aimon.js';
import { until } from '../../helpers/wait.js';

const { svc, user, env } = await startCliService(t, 20);
const M = '/api/business/monitor/monitors';

t.test('watch a discovered brand from the command line', async (t) => {
  const created = await svc.client.post(
    M,
    {
      name: 'CRM watch',
      prompts: ['best CRM for a small team'],
      platforms: [{ platform: 'sandbox', mode: 'search' }],
      monitorKeywords: 'Acme',
      samples: 2,
      schedule: { everyMinutes: 1440 },
      enabled: false,
    },
    user.token,
  );
  t.equal(created.status, 200, created.text);
  const id = created.body.data.monitorId as string;
  const first = await aimon(['monitor', 'run', id, '--wait'], env, { timeoutMs: 90_000 });
  t.equal(first.code, 0, 'the first run', { stderr: first.stderr });

  const trends = await aimon(['monitor', 'trends', id], env);
  t.equal(trends.code, 0, trends.stderr);
  t.match(trends.stdout, /^discovered brands \(recommended, not watched\) by platform$/m);
  t.match(trends.stdout, /sandbox\s+\S\s+Initech\s+\S\s+100\.0 % \[\d+\.\d %–100\.0 %\] n=2/);
  t.match(trends.stdout, /Hooli/);

  const watched = await aimon(['monitor', 'watch', 'CRM watch', 'Initech'], env);
  t.equal(watched.code, 0, watched.stderr);
  t.equal(
    watched.stdout.trim(),
    'now watching "Initech" in "CRM watch": the next run measures it (keywords: Acme, Initech)',
    'by the monitor’s name',
  );
  const again = await aimon(['monitor', 'watch', id, 'INITECH', '--json'], env);
  t.equal(again.code, 0, again.stderr);
  t.match(JSON.parse(again.stdout), {
    added: false,
    keyword: 'Initech',
    monitor: { monitorId: id },
  });

  const refused = await aimon(['monitor', 'watch', id, 'Acme, Inc.'], env);
  t.equal(refused.code, 1, 'a usage error');
  t.match(refused.stderr, /name: must not contain , ， 、 ; ； or \|/);
  const unknown = await aimon(['monitor', 'watch', 'no such monitor', 'X'], env);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /no monitor is named "no such monitor"/);

  const second = await aimon(['monitor', 'run', id, '--wait'], env, { timeoutMs: 90_000 });
  t.equal(second.code, 0, 'the next run', { stderr: second.stderr });
  const after = await until('the second point', async () => {
    const r = await aimon(['monitor', 'trends', id, '--json'], env);
    const data = JSON.parse(r.stdout) as {
      series: { keyword: string; points: { mentionRate: { value: number } }[] }[];
      discovered: { name: string; watched: boolean }[];
    };
    return data.series.some((s) => s.keyword === 'Initech') && data;
  });
  t.strictSame(
    after.series.find((s) => s.keyword === 'Initech')!.points.map((p) => p.mentionRate.value),
    [1],
    'measured as a keyword from the run after it was watched',
  );
  t.match(
    after.discovered,
    [
      { name: 'Hooli', watched: false, answers: 4 },
      { name: 'Initech', watched: true, answers: 2 },
    ],
    'Initech watched; its discovered series ends with the run before',
  );
});
