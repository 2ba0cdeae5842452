import t from 'tap';
import { buildSubmission, promptsOfFile, screenshotLevel } from '../../../bin/cli/submission.js';

t.test('prompts of a file: one per non-blank line, CRLF and BOM alike', async (t) => {
  t.same(promptsOfFile('\uFEFFfirst\r\n\r\n  second  \nthird'), ['first', 'second', 'third']);
  t.same(promptsOfFile(''), []);
});

t.test('screenshot levels', async (t) => {
  t.equal(screenshotLevel(undefined), 0);
  t.equal(screenshotLevel(true), 1);
  t.equal(screenshotLevel('1'), 1);
  t.equal(screenshotLevel('2'), 2);
  t.equal(screenshotLevel('mentions'), 2);
  t.throws(() => screenshotLevel('3'), { code: 1 });
});

t.test('the request body carries only what was given', async (t) => {
  t.same(buildSubmission(['p'], { platform: ['sandbox'] }), {
    prompts: ['p'],
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
  });
  t.same(
    buildSubmission(['a', 'b'], {
      platform: ['chatgpt:search', 'doubao:reasoning:web'],
      name: 'Week 12',
      region: '310100',
      keywords: 'Acme|acme.com,Globex',
      callback: 'https://hooks.example.com/x',
      screenshot: '2',
    }),
    {
      name: 'Week 12',
      prompts: ['a', 'b'],
      platforms: [
        { platform: 'chatgpt', mode: 'search', screenshot: 2 },
        { platform: 'doubao', mode: 'reasoning', channel: 'web', screenshot: 2 },
      ],
      regionCode: ['310100'],
      monitorKeywords: 'Acme|acme.com,Globex',
      callbackUrl: 'https://hooks.example.com/x',
    },
  );
});

t.test('no prompts or no platforms are usage errors', async (t) => {
  t.throws(() => buildSubmission([], { platform: ['sandbox'] }), {
    code: 1,
    message: /no prompts/,
  });
  t.throws(() => buildSubmission(['p'], { platform: [] }), { code: 1, message: /no platforms/ });
});
