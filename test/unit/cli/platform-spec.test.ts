import t from 'tap';
import { CliError } from '../../../bin/cli/exit-codes.js';
import { parsePlatformSpec, parsePlatformSpecs } from '../../../bin/cli/platform-spec.js';

t.test('platform[:mode][:channel] maps to the API fields', async (t) => {
  t.same(parsePlatformSpec('chatgpt'), { platform: 'chatgpt', mode: 'standard' });
  t.same(parsePlatformSpec('chatgpt:search'), { platform: 'chatgpt', mode: 'search' });
  t.same(parsePlatformSpec('doubao:reasoning:web'), {
    platform: 'doubao',
    mode: 'reasoning',
    channel: 'web',
  });
  t.same(parsePlatformSpec('Doubao:Reasoning_Search:API'), {
    platform: 'Doubao',
    mode: 'reasoning_search',
    channel: 'api',
  });
});

t.test('a channel may stand in the mode place; the mode is then standard', async (t) => {
  t.same(parsePlatformSpec('sandbox:web'), {
    platform: 'sandbox',
    mode: 'standard',
    channel: 'web',
  });
});

t.test('unknown names pass on for the API to judge', async (t) => {
  t.same(parsePlatformSpec('nosuch:flying:air'), {
    platform: 'nosuch',
    mode: 'flying',
    channel: 'air',
  });
});

t.test('empty parts and too many parts are usage errors', async (t) => {
  for (const bad of ['', ':search', 'a::web', 'a:search:', 'a:b:c:d']) {
    t.throws(() => parsePlatformSpec(bad), { name: 'CliError', code: 1 }, bad);
  }
  const err = (() => {
    try {
      parsePlatformSpec('a::b');
    } catch (e) {
      return e as CliError;
    }
  })();
  t.match(err?.message, /bad platform "a::b": expected platform\[:mode\]\[:channel\]/);
});

t.test('repeated options and comma lists give every spec in order', async (t) => {
  t.same(
    parsePlatformSpecs(['chatgpt:search, kimi', 'doubao:web', ' ']).map((p) => p.platform),
    ['chatgpt', 'kimi', 'doubao'],
  );
});
