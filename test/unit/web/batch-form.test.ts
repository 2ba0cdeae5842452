import t from 'tap';
import {
  batchBody,
  channelAvailable,
  errorsByField,
  parsePrompts,
} from '../../../web/src/batch-form.js';
import type { PlatformInfo } from '../../../web/src/types.js';

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

t.test('availability of a channel: unknown while no crawler node is up', async (t) => {
  const p = { availableChannels: ['web'] } as PlatformInfo;
  t.equal(channelAvailable(p, 'web'), true);
  t.equal(channelAvailable(p, 'api'), false);
  t.equal(channelAvailable({ ...p, availableChannels: null }, 'api'), null);
});
