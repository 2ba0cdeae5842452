import t from 'tap';
import {
  activeChannel,
  CHANNELS,
  channelsOf,
  effectiveChannel,
  findPlatform,
  isChannel,
  isMode,
  MODES,
  needsAccounts,
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

t.test('channels: web only where this build has (or the issue adds) a web driver', async (t) => {
  t.same(
    PLATFORMS.filter((p) => p.channels.web).map((p) => p.name),
    [
      'chatgpt',
      'gemini',
      'perplexity',
      'deepseek',
      'doubao',
      'kimi',
      'qwen',
      'yuanbao',
      'wenxin',
      'zhipu',
      'sandbox',
      'sandbox-web',
    ],
  );
  t.same(channelsOf(findPlatform('deepseek')!), ['api', 'web']);
  t.same(channelsOf(findPlatform('chatgpt')!), ['api', 'web']);
  t.same(channelsOf(findPlatform('claude')!), ['api']);
  t.same(channelsOf(findPlatform('sandbox-web')!), ['web']);
});

t.test('every definition carries the defaults of the channels it lists', async (t) => {
  for (const p of PLATFORMS) {
    if (p.simulated) {
      t.equal(p.api, undefined, `${p.name}: the sandbox needs no vendor API defaults`);
      if (p.channels.web) t.equal(p.web?.url, null, `${p.name}: the local sandbox is its site`);
      continue;
    }
    t.ok(p.channels.api && p.api, `${p.name} has an API channel with defaults`);
    t.match(p.api!.baseUrl, /^https:\/\//, `${p.name} API base URL`);
    for (const mode of supportedModes(p, 'api'))
      t.type(p.api!.models[mode], 'string', `${p.name} has a model for ${mode}`);
    t.equal(p.web !== undefined, p.channels.web !== undefined, `${p.name}: web defaults iff web`);
  }
  t.same(
    ['doubao', 'deepseek', 'kimi', 'yuanbao', 'qwen'].map((n) => findPlatform(n)!.web!.url),
    [
      'https://www.doubao.com',
      'https://chat.deepseek.com',
      'https://www.kimi.com',
      'https://yuanbao.tencent.com',
      'https://chat.qwen.ai',
    ],
  );
  t.same(findPlatform('kimi')!.web!.quota, { prompts: 30, perMs: 3 * 3_600_000 }, '30 per 3 h');
  t.equal(findPlatform('deepseek')!.web!.quota, null);
  for (const n of ['doubao', 'deepseek', 'kimi', 'yuanbao', 'qwen']) {
    t.ok(findPlatform(n)!.web!.gapMs >= 10_000, `${n} paces prompts like a person`);
  }
});

t.test(
  'a real site runs as accounts; the simulated sites and API-only platforms do not',
  async (t) => {
    t.same(
      PLATFORMS.filter((p) => p.web?.needsAccounts).map((p) => p.name),
      [
        'chatgpt',
        'gemini',
        'perplexity',
        'deepseek',
        'doubao',
        'kimi',
        'qwen',
        'yuanbao',
        'wenxin',
        'zhipu',
      ],
    );
    t.ok(needsAccounts('deepseek'));
    t.ok(needsAccounts('Moonshot'), 'by alias');
    t.notOk(needsAccounts('sandbox'));
    t.notOk(needsAccounts('sandbox-web'));
    t.notOk(needsAccounts('claude'), 'no web channel');
    t.notOk(needsAccounts('nope'));
  },
);

t.test('activeChannel and effectiveChannel', async (t) => {
  const deepseek = findPlatform('deepseek')!;
  t.equal(activeChannel(deepseek), 'api', 'the default');
  t.equal(activeChannel(deepseek, { deepseek: 'web' }), 'web', 'the operator choice');
  t.equal(activeChannel(findPlatform('claude')!, { claude: 'web' }), 'api', 'a channel it lacks');
  t.equal(activeChannel(deepseek, { deepseek: 'constructor' }), 'api', 'no prototype look-ups');
  t.equal(effectiveChannel(deepseek, undefined, { deepseek: 'web' }), 'web');
  t.equal(effectiveChannel(deepseek, null), 'api');
  t.equal(effectiveChannel(deepseek, 'web'), 'web', 'the request wins');
  t.equal(effectiveChannel(deepseek, 'api', { deepseek: 'web' }), 'api', 'the request wins');
});

t.test('isChannel', async (t) => {
  t.equal(isChannel('api'), true);
  t.equal(isChannel('web'), true);
  t.equal(isChannel('Web'), false);
  t.equal(isChannel('browser'), false);
  t.equal(isChannel(undefined), false);
});
