import t from 'tap';
import { benchAnswer, benchGroups, benchSubTasks } from '../../../../bench/brand/fixture.js';
import { brandFields } from '../../../../services/shared/brand/mentions.js';

t.test('the benchmark answer is the size asked for and names every group', async (t) => {
  const groups = benchGroups();
  t.equal(groups.length, 10);
  t.ok(groups.every((g) => g.aliases.length === 3 && g.domains.length === 1));
  t.equal(groups.filter((g) => g.aliases.some((a) => /\p{sc=Han}/u.test(a))).length, 5);
  const answer = benchAnswer();
  t.ok(
    answer.answerContent.length >= 10_000 && answer.answerContent.length < 11_000,
    `${answer.answerContent.length} chars`,
  );
  t.equal(answer.referenceList.length, 20);
  t.same(benchAnswer(), answer, 'deterministic');
  const { mentions } = brandFields(groups, answer);
  t.ok(
    mentions.every((m) => m.count > 0),
    'every group is mentioned',
  );
  t.ok(mentions.some((m) => m.inCitations) && mentions.some((m) => m.inReferences));
});

t.test('the sub tasks spread over platforms and channels, one in ten failed', async (t) => {
  const subTasks = benchSubTasks(benchGroups(), 100);
  t.equal(subTasks.length, 100);
  t.equal(subTasks.filter((s) => s.status === 'failed').length, 10);
  t.same([...new Set(subTasks.map((s) => `${s.platform}/${s.channel}`))].sort(), [
    'deepseek/api',
    'deepseek/web',
    'doubao/api',
    'kimi/api',
    'kimi/web',
    'qwen/api',
    'yuanbao/api',
  ]);
});
