/**
 * Brand visibility end to end, every role in one process over the real
 * MongoDB-wire server: a sandbox batch whose answers name known brands (the
 * sandbox names three of its six brands per prompt, the most recommended
 * first) gets exact mentions on every sub task, in the sub task result, the
 * full result and the callback body, and a visibility summary in the full
 * result and at GET …/task/{taskId}/visibility.
 */
import t from 'tap';
import { brandsFor, sandboxAnswer } from '../../../sandbox/answers.js';
import { startSandboxServer } from '../../../sandbox/server.js';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { brandFields } from '../../../services/shared/brand/mentions.js';
import { parseKeywords } from '../../../services/shared/brand/keywords.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { untilTaskFinal } from '../../helpers/task-final.js';

const sandbox = await startSandboxServer({ latencyMs: 20 });
t.teardown(() => sandbox.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '8',
});
const alice = await svc.newUser('alice');
const bob = await svc.newUser('bob');
const M = '/api/business/monitor';

// Four of the sandbox's six brands, each with its Chinese name as an alias; Acme declares its site.
const KEYWORDS = 'Acme|阿克米|acme.example, Globex|格罗贝克斯；Initech|英尼泰克\nHooli|呼利';
const GROUPS = keywordGroups(parseKeywords(KEYWORDS));
const PROMPTS = ['best CRM for a small team', 'which project tool should we buy', '最好的客服软件'];

async function run(platforms: unknown[]) {
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts: PROMPTS, platforms, monitorKeywords: KEYWORDS },
    alice.token,
  );
  t.equal(res.status, 200, res.text);
  const taskId = res.body.data.taskId as string;
  await untilTaskFinal(svc.client, alice.token, taskId, 90_000, 100);
  return taskId;
}

t.test('every sub task carries its exact mentions; the task its visibility', async (t) => {
  const taskId = await run([
    { platform: 'sandbox', mode: 'search' },
    { platform: 'sandbox', mode: 'search', channel: 'web' },
  ]);
  const result = (await svc.client.get(`${M}/task/result/${taskId}`, alice.token)).body.data;
  t.equal(result.status, 'completed');
  t.equal(result.subTaskList.length, 6);
  for (const sub of result.subTaskList) {
    const named = new Set(brandsFor(sub.prompt).map((b) => b.name));
    t.same(
      sub.mentions.map((m: { keyword: string }) => m.keyword),
      ['Acme', 'Globex', 'Initech', 'Hooli'],
      'one entry per group, in order',
    );
    for (const m of sub.mentions) {
      t.equal(m.count > 0, named.has(m.keyword), `${sub.prompt}: ${m.keyword} named or not`);
      if (m.count === 0) t.match(m, { firstIndex: null, position: null, groupRank: null });
    }
    const recommended = brandsFor(sub.prompt).map((b) => b.name);
    const typed = recommended.filter((name) => GROUPS.some((g) => g.keyword === name));
    for (const m of sub.mentions)
      if (m.count > 0)
        t.match(
          m,
          {
            position: recommended.indexOf(m.keyword) + 1,
            groupRank: typed.indexOf(m.keyword) + 1,
          },
          `${sub.prompt}: ${m.keyword} placed among all the recommended brands and among the groups`,
        );
    t.equal(
      sub.mentioned,
      sub.mentions.some((m: { count: number }) => m.count > 0),
    );
    t.equal(sub.sentiment, null, 'no judge configured');
    if (sub.channel === 'api')
      t.same(sub.mentions, brandFields(GROUPS, sandboxAnswer(sub.prompt, 'search')).mentions);
    for (const m of sub.mentions)
      if (m.count > 0)
        t.match(
          sub.answerContent.slice(m.firstIndex, m.firstIndex + 20).toLowerCase(),
          new RegExp(
            `^(${GROUPS.find((g) => g.keyword === m.keyword)!
              .aliases.map((a) => a.toLowerCase())
              .join('|')})`,
          ),
          'firstIndex points at the mention',
        );
  }

  const one = await svc.client.get(
    `${M}/task/result/${taskId}/${result.subTaskList[0].subTaskId}`,
    alice.token,
  );
  t.same(one.body.data.mentions, result.subTaskList[0].mentions, 'the sub task result too');

  const v = result.visibility;
  t.same(v.keywords, ['Acme', 'Globex', 'Initech', 'Hooli']);
  t.same(
    v.groups,
    [
      { keyword: 'Acme', aliases: ['Acme', '阿克米', 'acme.example'], domains: ['acme.example'] },
      { keyword: 'Globex', aliases: ['Globex', '格罗贝克斯'], domains: [] },
      { keyword: 'Initech', aliases: ['Initech', '英尼泰克'], domains: [] },
      { keyword: 'Hooli', aliases: ['Hooli', '呼利'], domains: [] },
    ],
    'each group with its aliases, for clients that find mentions themselves',
  );
  t.equal(v.rows.length, 8, 'four groups × sandbox on two channels');
  for (const row of v.rows) {
    const subs = result.subTaskList.filter((s: { channel: string }) => s.channel === row.channel);
    const mine = subs.map(
      (s: { mentions: { keyword: string; count: number; position: number | null }[] }) =>
        s.mentions.find((m) => m.keyword === row.keyword)!,
    );
    t.equal(row.platform, 'sandbox');
    t.equal(row.answers, 3);
    t.equal(row.mentionRate, mine.filter((m: { count: number }) => m.count > 0).length / 3);
    t.equal(
      row.top1Share,
      mine.filter((m: { position: number | null }) => m.position === 1).length / 3,
    );
  }
  const shares = v.rows
    .filter((r: { channel: string }) => r.channel === 'api')
    .map((r: { shareOfVoice: number }) => r.shareOfVoice);
  t.ok(Math.abs(shares.reduce((a: number, b: number) => a + b, 0) - 1) < 1e-9, 'voices add up');
  t.ok(
    v.domains.every((d: { top: { tag: string }[] }) =>
      d.top.every((x) => ['owned', 'competitor', 'other'].includes(x.tag)),
    ),
  );

  const alone = await svc.client.get(`${M}/task/${taskId}/visibility`, alice.token);
  t.equal(alone.status, 200);
  t.same(alone.body.data, v, 'the same object alone');
  t.equal((await svc.client.get(`${M}/task/${taskId}/visibility`, bob.token)).status, 404);
  t.equal((await svc.client.get(`${M}/task/not-a-uuid/visibility`, alice.token)).status, 400);

  // One api answer silently ran without the search, as a site that drops it would report.
  const fellBack = result.subTaskList.find((s: { channel: string }) => s.channel === 'api');
  await (
    await svc.db()
  )
    .collection('subtasks')
    .updateOne({ _id: fellBack.subTaskId }, { $set: { effectiveMode: 'standard' } });
  const split = (await svc.client.get(`${M}/task/${taskId}/visibility`, alice.token)).body.data;
  t.same(
    split.rows
      .filter((r: { keyword: string }) => r.keyword === 'Acme')
      .map((r: { channel: string; mode?: string; answers: number }) => [
        r.channel,
        r.mode,
        r.answers,
      ]),
    [
      ['api', 'standard', 1],
      ['api', 'search', 2],
      ['web', undefined, 3],
    ],
    'the answer counts under the mode that ran, apart from the searched ones',
  );
  t.same(
    split.domains.map((d: { channel: string; mode?: string }) => [d.channel, d.mode]),
    [
      ['api', 'standard'],
      ['api', 'search'],
      ['web', undefined],
    ],
  );
  const again = (await svc.client.get(`${M}/task/result/${taskId}`, alice.token)).body.data;
  t.same(again.visibility, split, 'the full result counts it the same way');
});

t.test(
  'visibility rows in one order at both endpoints: group, platform name, channel',
  async (t) => {
    // Submitted sandbox-cn first: rows still put sandbox first (by name), api before web.
    const taskId = await run([
      { platform: 'sandbox-cn', mode: 'search' },
      { platform: 'sandbox', mode: 'search', channel: 'web' },
      { platform: 'sandbox', mode: 'search' },
    ]);
    const full = (await svc.client.get(`${M}/task/result/${taskId}`, alice.token)).body.data;
    const alone = (await svc.client.get(`${M}/task/${taskId}/visibility`, alice.token)).body.data;
    const places = (v: { rows: { keyword: string; platform: string; channel?: string }[] }) =>
      v.rows.map((r) => [r.keyword, r.platform, r.channel]);
    const expected = GROUPS.flatMap((g) => [
      [g.keyword, 'sandbox', 'api'],
      [g.keyword, 'sandbox', 'web'],
      [g.keyword, 'sandbox-cn', undefined],
    ]);
    t.same(places(full.visibility), expected, 'the full result');
    t.same(places(alone), expected, 'the visibility endpoint');
    t.same(alone, full.visibility);
  },
);

t.test('without keywords: no mentions, an empty visibility', async (t) => {
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts: ['plain question'], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    alice.token,
  );
  const taskId = res.body.data.taskId as string;
  await untilTaskFinal(svc.client, alice.token, taskId, 60_000, 100);
  const result = (await svc.client.get(`${M}/task/result/${taskId}`, alice.token)).body.data;
  t.match(result.subTaskList[0], { mentions: [], mentioned: false, sentiment: null });
  t.same(result.visibility.keywords, []);
  t.same(result.visibility.groups, []);
  t.same(result.visibility.rows, []);
});
