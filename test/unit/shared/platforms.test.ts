import t from 'tap';
import {
  CHANNELS,
  findPlatform,
  isMode,
  MODES,
  PLATFORMS,
  supportedModes,
} from '../../../services/shared/platforms.js';

t.test('catalogue constants', async (t) => {
  t.same(MODES, ['standard', 'reasoning', 'search', 'reasoning_search']);
  t.same(CHANNELS, ['api', 'web']);
  t.same(
    PLATFORMS.map((p) => p.name),
    [
      'chatgpt',
      'claude',
      'gemini',
      'perplexity',
      'deepseek',
      'doubao',
      'kimi',
      'qwen',
      'yuanbao',
      'wenxin',
      'zhipu',
      'grok',
      'sandbox',
      'sandbox-web',
      'sandbox-cn',
    ],
  );
});

t.test('names and aliases are lowercase and never shared between platforms', async (t) => {
  const owner = new Map<string, string>();
  for (const p of PLATFORMS) {
    for (const n of [p.name, ...p.aliases]) {
      t.equal(n, n.toLowerCase(), `${n} is lowercase`);
      t.notOk(owner.has(n), `${n} is unique`);
      owner.set(n, p.name);
    }
    t.ok(p.channels[p.defaultChannel], `${p.name} default channel exists`);
  }
});

t.test('findPlatform resolves canonical names and aliases in any case', async (t) => {
  t.equal(findPlatform('chatgpt')?.name, 'chatgpt');
  t.equal(findPlatform('ChatGPT')?.name, 'chatgpt');
  t.equal(findPlatform('OPENAI')?.name, 'chatgpt');
  t.equal(findPlatform('gpt')?.name, 'chatgpt');
  t.equal(findPlatform('  claude ')?.name, 'claude', 'trimmed');
  t.equal(findPlatform('anthropic')?.name, 'claude');
  t.equal(findPlatform('bard')?.name, 'gemini');
  t.equal(findPlatform('ernie')?.name, 'wenxin');
  t.equal(findPlatform('demo')?.name, 'sandbox');
  t.equal(findPlatform('moonshot')?.label, 'Kimi');
  t.equal(findPlatform('bing'), undefined);
  t.equal(findPlatform(''), undefined);
  t.equal(findPlatform('chat gpt'), undefined);
  t.equal(findPlatform('constructor'), undefined, 'no prototype look-ups');
  t.equal(findPlatform('__proto__'), undefined);
});

t.test('supportedModes per channel', async (t) => {
  const deepseek = findPlatform('deepseek')!;
  t.same(supportedModes(deepseek), ['standard', 'reasoning'], 'default api channel has no search');
  t.same(supportedModes(deepseek, 'api'), ['standard', 'reasoning']);
  t.same(supportedModes(deepseek, 'web'), ['standard', 'reasoning', 'search', 'reasoning_search']);
  t.same(supportedModes(findPlatform('chatgpt')!), [
    'standard',
    'reasoning',
    'search',
    'reasoning_search',
  ]);
  t.same(
    supportedModes({ ...deepseek, channels: { web: ['search'] } }, 'api'),
    [],
    'an absent channel supports nothing',
  );
  t.same(
    supportedModes({ ...deepseek, channels: { api: ['search', 'standard'] } }),
    ['standard', 'search'],
    'listed in catalogue order',
  );
});

t.test('isMode', async (t) => {
  for (const m of MODES) t.equal(isMode(m), true, m);
  t.equal(isMode('Search'), false);
  t.equal(isMode('web'), false);
  t.equal(isMode(''), false);
  t.equal(isMode(undefined), false);
  t.equal(isMode(1), false);
  t.equal(isMode(['search']), false);
});
