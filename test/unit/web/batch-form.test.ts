import t from 'tap';
import {
  batchBody,
  errorsByField,
  parsePrompts,
  verdictText,
} from '../../../web/src/batch-form.js';

t.test('prompts: one per line, list markers and blank lines dropped', async (t) => {
  t.same(parsePrompts('1. first\n\n2) second\r\n- third\n• 第四\n  plain  \n3、第五'), [
    'first',
    'second',
    'third',
    '第四',
    'plain',
    '第五',
  ]);
  t.same(parsePrompts('2025 sales leaders\n-5 degrees'), ['2025 sales leaders', '-5 degrees']);
  t.same(parsePrompts('\n \n'), []);
});

t.test('the request body: optional fields only when given', async (t) => {
  const form = {
    name: ' ',
    prompts: 'a\nb',
    choices: [{ platform: 'sandbox', channel: 'web', mode: 'search' }],
    screenshot: 2,
    regionCode: '',
    monitorKeywords: '  ',
    callbackUrl: '',
  };
  t.same(batchBody(form), {
    prompts: ['a', 'b'],
    platforms: [{ platform: 'sandbox', channel: 'web', mode: 'search', screenshot: 2 }],
  });
  t.match(
    batchBody({
      ...form,
      name: ' Week 12 ',
      regionCode: '310100',
      monitorKeywords: ' Acme|acme.com ',
      callbackUrl: ' https://h.example/x ',
    }),
    {
      name: 'Week 12',
      regionCode: ['310100'],
      monitorKeywords: 'Acme|acme.com',
      callbackUrl: 'https://h.example/x',
    },
  );
});

t.test('the 400 errors list, by the form field each entry names', async (t) => {
  t.same(
    errorsByField([
      { field: 'platforms[0].platform', message: 'unknown platform' },
      { field: 'platforms[1].mode', message: 'bad mode' },
      { field: 'regionCode[0]', message: 'not a code' },
      { field: 'callbackUrl', message: 'must be http(s)' },
      { field: 'name', message: 'too long' },
      { field: 'prompts', message: 'at most 50' },
      { field: 'body', message: 'not JSON' },
      { field: '', message: 'something' },
    ]),
    {
      platforms: ['platforms[0].platform: unknown platform', 'platforms[1].mode: bad mode'],
      regionCode: ['regionCode[0]: not a code'],
      callbackUrl: ['must be http(s)'],
      name: ['too long'],
      prompts: ['at most 50'],
      form: ['body: not JSON', 'something'],
    },
  );
});

t.test('a channel’s verdict in the UI’s words, naming what is missing', async (t) => {
  const t2 = (key: string, vars?: { region: string }) => `${key}${vars ? `(${vars.region})` : ''}`;
  const verdict = (available: boolean | null, missing: ('node' | 'account')[] = []) => ({
    available,
    missing,
    reason: available === true ? null : 'the service’s words',
  });
  t.same(verdictText(verdict(true), '', t2), { state: 'available', missing: null });
  t.same(verdictText(verdict(null), '', t2), { state: 'unknownAvailability', missing: null });
  t.same(verdictText(undefined, '', t2), { state: 'unknownAvailability', missing: null });
  t.same(verdictText(verdict(false, ['node', 'account']), '', t2), {
    state: 'unavailable',
    missing: 'missingNode; missingAccount',
  });
  t.same(verdictText(verdict(false, ['account']), '440100', t2), {
    state: 'unavailable',
    missing: 'missingAccountIn(440100)',
  });
});
