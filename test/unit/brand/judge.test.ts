/**
 * The sentiment judge's request and answer: the prompt names the brands and
 * carries the answer, the sandbox reads both back, and a judge's reply is read
 * strictly (every brand asked about, one of three sentiments, one line).
 */
import t from 'tap';
import fc from 'fast-check';
import {
  isJudgePrompt,
  judgePrompt,
  judgeRequestOf,
  parseVerdicts,
} from '../../../services/shared/brand/judge.js';
import { sandboxJudgeReply, sandboxVerdicts } from '../../../sandbox/judge.js';

t.test('a judge prompt carries the brands and the answer, and reads back', async (t) => {
  const prompt = judgePrompt(['Acme', '阿克米 "Pro"'], 'Acme is great.\n\n阿克米 less so.');
  t.ok(isJudgePrompt(prompt));
  t.notOk(isJudgePrompt('best CRM'));
  t.same(judgeRequestOf(prompt), {
    keywords: ['Acme', '阿克米 "Pro"'],
    answer: 'Acme is great.\n\n阿克米 less so.',
  });
  t.equal(judgeRequestOf('best CRM'), null);
  fc.assert(
    fc.property(
      fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 5 }),
      fc.string({ maxLength: 2000 }),
      (keywords, answer) => {
        t.same(judgeRequestOf(judgePrompt(keywords, answer)), { keywords, answer });
      },
    ),
    { numRuns: 200 },
  );
});

t.test('verdicts are read strictly', async (t) => {
  const reply =
    'Sure:\n```json\n[{"keyword":"acme","sentiment":"positive","reason":"praised\\n twice"},' +
    '{"keyword":"Globex","sentiment":"negative","reason":"too dear"},' +
    '{"keyword":"Other","sentiment":"neutral","reason":"not asked"}]\n```';
  t.same(parseVerdicts(reply, ['Acme', 'Globex']), [
    { keyword: 'Acme', sentiment: 'positive', reason: 'praised twice' },
    { keyword: 'Globex', sentiment: 'negative', reason: 'too dear' },
  ]);
  t.equal(parseVerdicts(reply, ['Acme', 'Hooli']), null, 'a brand without a verdict');
  t.equal(parseVerdicts('no JSON here', ['Acme']), null);
  t.equal(parseVerdicts('[{"keyword":"Acme","sentiment":"great","reason":"x"}]', ['Acme']), null);
  t.equal(parseVerdicts('[{"keyword":"Acme"', ['Acme']), null);
});

t.test('the sandbox judge answers deterministically, in the shape asked for', async (t) => {
  const answer = 'Acme leads; Globex follows.';
  const prompt = judgePrompt(['Acme', 'Globex'], answer);
  const reply = sandboxJudgeReply(prompt)!;
  t.equal(sandboxJudgeReply(prompt), reply, 'the same reply every time');
  t.same(parseVerdicts(reply, ['Acme', 'Globex']), sandboxVerdicts(['Acme', 'Globex'], answer));
  t.equal(sandboxJudgeReply('best CRM'), null, 'no judge request, no verdicts');
  const seen = new Set(
    Array.from({ length: 30 }, (_, i) => sandboxVerdicts(['Acme'], `answer ${i}`)[0]!.sentiment),
  );
  t.same([...seen].sort(), ['negative', 'neutral', 'positive'], 'all three sentiments occur');
});
