import t from 'tap';
import {
  checkSubmission,
  dedupePlatforms,
  LIMITS,
  regionProblem,
  type Submission,
} from '../../../../services/shared/requests/submission.js';
import { planTask } from '../../../../services/tasks/plan.js';
import type { FieldProblem } from '../../../../services/shared/errors.js';
import type { AvailabilityFacts } from '../../../../services/shared/availability.js';

const VALID_NAMES =
  'chatgpt, claude, gemini, perplexity, deepseek, doubao, kimi, qwen, yuanbao, wenxin, zhipu, grok, sandbox, sandbox-web, sandbox-cn';

function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    prompts: ['best CRM?'],
    platforms: [{ platform: 'chatgpt', mode: 'search' }],
    ...overrides,
  };
}

function accepted(input: unknown): Submission {
  const r = checkSubmission(input);
  if (!r.ok) throw new Error(`rejected: ${JSON.stringify(r.errors)}`);
  return r.value;
}

function rejected(input: unknown): FieldProblem[] {
  const r = checkSubmission(input);
  if (r.ok) throw new Error(`accepted: ${JSON.stringify(r.value)}`);
  return r.errors;
}

t.test('limits', async (t) => {
  t.same(LIMITS, {
    prompts: 50,
    platforms: 50,
    promptChars: 10_000,
    keywordsChars: 2_000,
    urlChars: 2_048,
    nameChars: 200,
  });
  t.ok(Object.isFrozen(LIMITS));
});

t.test('a minimal valid submission is normalised with defaults', async (t) => {
  t.same(accepted(body()), {
    name: null,
    prompts: ['best CRM?'],
    platforms: [{ platform: 'chatgpt', channel: 'api', mode: 'search', screenshot: 0 }],
    regionCode: null,
    callbackUrl: null,
    monitorKeywords: null,
    keywords: [],
  });
});

t.test('a full valid submission', async (t) => {
  t.same(
    accepted({
      name: '  CRM shortlist  ',
      monitorKeywords: 'Acme，阿克米、acme',
      prompts: ['best CRM?', '最好的CRM是什么？'],
      platforms: [
        { platform: 'ChatGPT', mode: 'search', screenshot: 1 },
        { platform: 'deepseek', mode: 'reasoning' },
        { platform: 'openai', mode: 'standard' },
        { platform: 'CHATGPT', mode: 'reasoning', screenshot: 2 },
      ],
      regionCode: ['110000'],
      callbackUrl: 'https://example.com/hook',
      unknownField: 'ignored',
    }),
    {
      name: 'CRM shortlist',
      prompts: ['best CRM?', '最好的CRM是什么？'],
      platforms: [
        { platform: 'chatgpt', channel: 'api', mode: 'search', screenshot: 1 },
        { platform: 'deepseek', channel: 'api', mode: 'reasoning', screenshot: 0 },
      ],
      regionCode: '110000',
      callbackUrl: 'https://example.com/hook',
      monitorKeywords: 'Acme，阿克米、acme',
      keywords: ['Acme', '阿克米'],
    },
  );
});

t.test('a body that is not an object', async (t) => {
  const expected = [{ field: 'body', message: 'must be a JSON object' }];
  t.same(rejected([]), expected, 'array');
  t.same(rejected([body()]), expected, 'array of a valid body');
  t.same(rejected(null), expected, 'null');
  t.same(rejected(undefined), expected, 'undefined');
  t.same(rejected('{"prompts":["x"]}'), expected, 'string');
  t.same(rejected(42), expected, 'number');
  t.same(rejected(true), expected, 'boolean');
});

t.test('an empty object reports both required fields', async (t) => {
  t.same(rejected({}), [
    { field: 'prompts', message: 'is required and must be an array of strings' },
    { field: 'platforms', message: 'is required and must be an array of platform configurations' },
  ]);
});

t.test('prompts', async (t) => {
  t.same(rejected(body({ prompts: undefined })), [
    { field: 'prompts', message: 'is required and must be an array of strings' },
  ]);
  t.same(rejected(body({ prompts: 'best CRM?' })), [
    { field: 'prompts', message: 'is required and must be an array of strings' },
  ]);
  t.same(rejected(body({ prompts: null })), [
    { field: 'prompts', message: 'is required and must be an array of strings' },
  ]);
  t.same(rejected(body({ prompts: [] })), [
    { field: 'prompts', message: 'must contain at least one prompt' },
  ]);
  const fifty = Array.from({ length: 50 }, (_, i) => `prompt ${i}`);
  t.equal(accepted(body({ prompts: fifty })).prompts.length, 50, '50 prompts are fine');
  t.same(rejected(body({ prompts: [...fifty, 'one more'] })), [
    { field: 'prompts', message: 'must contain at most 50 prompts' },
  ]);
  t.same(rejected(body({ prompts: ['ok', '   '] })), [
    { field: 'prompts[1]', message: 'must not be blank' },
  ]);
  t.same(rejected(body({ prompts: [''] })), [
    { field: 'prompts[0]', message: 'must not be blank' },
  ]);
  t.same(rejected(body({ prompts: ['\n\t '] })), [
    { field: 'prompts[0]', message: 'must not be blank' },
  ]);
  t.same(accepted(body({ prompts: ['x'.repeat(10_000)] })).prompts, ['x'.repeat(10_000)]);
  t.same(rejected(body({ prompts: ['x'.repeat(10_001)] })), [
    { field: 'prompts[0]', message: 'must be at most 10000 characters' },
  ]);
  t.same(rejected(body({ prompts: ['ok', 1, null, { a: 1 }] })), [
    { field: 'prompts[1]', message: 'must be a string' },
    { field: 'prompts[2]', message: 'must be a string' },
    { field: 'prompts[3]', message: 'must be a string' },
  ]);
  t.same(
    accepted(body({ prompts: ['  padded  ', 'same', 'same'] })).prompts,
    ['  padded  ', 'same', 'same'],
    'prompts are kept as given (no trimming, no dedup)',
  );
});

t.test('platforms: required and counted', async (t) => {
  const required = [
    { field: 'platforms', message: 'is required and must be an array of platform configurations' },
  ];
  t.same(rejected(body({ platforms: undefined })), required);
  t.same(rejected(body({ platforms: null })), required);
  t.same(rejected(body({ platforms: { platform: 'chatgpt', mode: 'search' } })), required);
  t.same(rejected(body({ platforms: [] })), [
    { field: 'platforms', message: 'must contain at least one platform configuration' },
  ]);
  const entry = { platform: 'chatgpt', mode: 'search' };
  const fifty = Array.from({ length: 50 }, () => entry);
  t.same(
    accepted(body({ platforms: fifty })).platforms,
    [{ platform: 'chatgpt', channel: 'api', mode: 'search', screenshot: 0 }],
    '50 entries are fine and dedup to one',
  );
  t.same(
    rejected(body({ platforms: [...fifty, entry] })),
    [
      {
        field: 'platforms',
        message: 'must contain at most 50 entries (counted before deduplication)',
      },
    ],
    '51 entries are refused even though they dedup to one',
  );
});

t.test('platforms: names', async (t) => {
  t.same(rejected(body({ platforms: [{ platform: 'bing', mode: 'search' }] })), [
    {
      field: 'platforms[0].platform',
      message: `unknown platform; valid platforms: ${VALID_NAMES}`,
    },
  ]);
  const missing = rejected(body({ platforms: [{ mode: 'search' }] }));
  t.same(missing, [{ field: 'platforms[0].platform', message: 'must be a string' }]);
  t.same(rejected(body({ platforms: [{ platform: 7, mode: 'search' }] })), [
    { field: 'platforms[0].platform', message: 'must be a string' },
  ]);
  const empty = rejected(body({ platforms: [{ platform: '', mode: 'search' }] }));
  t.same(empty[0], { field: 'platforms[0].platform', message: 'must not be empty' });
  t.ok(
    empty.every((e) => e.field === 'platforms[0].platform'),
    'only the platform field is blamed',
  );
  t.same(rejected(body({ platforms: ['chatgpt'] })), [
    { field: 'platforms[0]', message: 'Invalid input: expected object, received string' },
  ]);
  t.same(
    accepted(body({ platforms: [{ platform: ' Claude ', mode: 'standard' }] })).platforms,
    [{ platform: 'claude', channel: 'api', mode: 'standard', screenshot: 0 }],
    'padded, mixed-case name resolves to the canonical name',
  );
});

t.test('platforms: modes', async (t) => {
  t.same(rejected(body({ platforms: [{ platform: 'chatgpt' }] })), [
    {
      field: 'platforms[0].mode',
      message: 'must be one of standard, reasoning, search, reasoning_search',
    },
  ]);
  t.same(rejected(body({ platforms: [{ platform: 'chatgpt', mode: 'Search' }] })), [
    {
      field: 'platforms[0].mode',
      message: 'must be one of standard, reasoning, search, reasoning_search',
    },
  ]);
  for (const mode of ['standard', 'reasoning', 'search', 'reasoning_search']) {
    t.equal(accepted(body({ platforms: [{ platform: 'gemini', mode }] })).platforms[0]?.mode, mode);
  }
});

t.test('platforms: a mode the platform does not support on its default channel', async (t) => {
  t.same(
    rejected(
      body({
        platforms: [
          { platform: 'chatgpt', mode: 'search' },
          { platform: 'DeepSeek', mode: 'search' },
          { platform: 'deepseek', mode: 'reasoning_search' },
        ],
      }),
    ),
    [
      {
        field: 'platforms[1].mode',
        message:
          'deepseek does not support mode search on the api channel; supported: standard, reasoning',
      },
      {
        field: 'platforms[2].mode',
        message:
          'deepseek does not support mode reasoning_search on the api channel; supported: standard, reasoning',
      },
    ],
  );
  t.same(accepted(body({ platforms: [{ platform: 'deepseek', mode: 'reasoning' }] })).platforms, [
    { platform: 'deepseek', channel: 'api', mode: 'reasoning', screenshot: 0 },
  ]);
});

t.test('platforms: screenshot', async (t) => {
  const shot = (screenshot: unknown) =>
    checkSubmission(body({ platforms: [{ platform: 'chatgpt', mode: 'search', screenshot }] }));
  const message = 'must be 0 (none), 1 (screenshot) or 2 (screenshot of mentions)';
  for (const v of [0, 1, 2]) {
    const r = shot(v);
    t.same(r.ok && r.value.platforms[0]?.screenshot, v, `${v} accepted`);
  }
  const absent = shot(undefined);
  t.same(absent.ok && absent.value.platforms[0]?.screenshot, 0, 'default 0');
  for (const v of ['1', 3, -1, 1.5, true, '0']) {
    t.same(
      shot(v),
      { ok: false, errors: [{ field: 'platforms[0].screenshot', message }] },
      `${JSON.stringify(v)} rejected`,
    );
  }
});

t.test('regionCode', async (t) => {
  t.equal(accepted(body({ regionCode: ['110000'] })).regionCode, '110000');
  t.equal(accepted(body({ regionCode: ['11'] })).regionCode, '11');
  t.equal(accepted(body({ regionCode: ['110101001001'] })).regionCode, '110101001001');
  t.equal(accepted(body({ regionCode: null })).regionCode, null, 'null is absent');
  t.equal(accepted(body()).regionCode, null, 'absent');
  const notArray = [
    { field: 'regionCode', message: 'must be an array with exactly one region code' },
  ];
  t.same(rejected(body({ regionCode: 110000 })), notArray);
  t.same(rejected(body({ regionCode: '1' })), notArray);
  // zod also runs the length check on a string (it has a .length), so a bare string of
  // another length gets a second, redundant message on the same field.
  const bare = rejected(body({ regionCode: '110000' }));
  t.same(bare[0], notArray[0]);
  t.same(
    bare.map((e) => e.field),
    bare.map(() => 'regionCode'),
    'only regionCode is blamed',
  );
  const notOne = [{ field: 'regionCode', message: 'must contain exactly one region code' }];
  t.same(rejected(body({ regionCode: [] })), notOne);
  t.same(rejected(body({ regionCode: ['110000', '120000'] })), notOne);
  const badCode = [
    {
      field: 'regionCode[0]',
      message: 'must be an administrative division code (2 to 12 digits)',
    },
  ];
  t.same(rejected(body({ regionCode: ['11a000'] })), badCode);
  t.same(rejected(body({ regionCode: ['1'] })), badCode);
  t.same(rejected(body({ regionCode: ['1101010010011'] })), badCode);
  t.same(rejected(body({ regionCode: [' 110000'] })), badCode);
  t.same(rejected(body({ regionCode: [''] })), badCode);
  t.same(rejected(body({ regionCode: [110000] })), [
    { field: 'regionCode[0]', message: 'must be a string' },
  ]);
});

t.test('callbackUrl', async (t) => {
  t.equal(
    accepted(body({ callbackUrl: 'http://hooks.example.com/a?b=c' })).callbackUrl,
    'http://hooks.example.com/a?b=c',
  );
  t.equal(accepted(body({ callbackUrl: 'https://x.test' })).callbackUrl, 'https://x.test');
  t.equal(accepted(body({ callbackUrl: null })).callbackUrl, null, 'null is absent');
  const bad = [{ field: 'callbackUrl', message: 'must be an absolute http:// or https:// URL' }];
  for (const url of [
    'ftp://example.com/hook',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'mailto:a@b.c',
    'example.com/hook',
    '/relative/hook',
    'http://',
    '',
  ]) {
    t.same(rejected(body({ callbackUrl: url })), bad, `${JSON.stringify(url)} rejected`);
  }
  t.same(rejected(body({ callbackUrl: 42 })), [
    { field: 'callbackUrl', message: 'must be a string' },
  ]);
  const long = `https://example.com/${'a'.repeat(2048 - 20)}`;
  t.equal(long.length, 2048);
  t.equal(accepted(body({ callbackUrl: long })).callbackUrl, long);
  t.same(rejected(body({ callbackUrl: `${long}a` })), [
    { field: 'callbackUrl', message: 'must be at most 2048 characters' },
  ]);
});

t.test('monitorKeywords', async (t) => {
  const v = accepted(body({ monitorKeywords: ' Acme; acme ;Beta\nGamma ' }));
  t.equal(v.monitorKeywords, ' Acme; acme ;Beta\nGamma ', 'kept as given');
  t.same(v.keywords, ['Acme', 'Beta', 'Gamma']);
  const n = accepted(body({ monitorKeywords: null }));
  t.equal(n.monitorKeywords, null);
  t.same(n.keywords, []);
  t.same(accepted(body({ monitorKeywords: '' })).keywords, []);
  t.same(rejected(body({ monitorKeywords: 5 })), [
    { field: 'monitorKeywords', message: 'must be a string' },
  ]);
  t.same(rejected(body({ monitorKeywords: ['Acme'] })), [
    { field: 'monitorKeywords', message: 'must be a string' },
  ]);
  t.equal(accepted(body({ monitorKeywords: 'k'.repeat(2000) })).keywords.length, 1);
  t.same(rejected(body({ monitorKeywords: 'k'.repeat(2001) })), [
    { field: 'monitorKeywords', message: 'must be at most 2000 characters' },
  ]);
});

t.test('name: optional, trimmed, one line of at most 200 characters', async (t) => {
  t.equal(accepted(body({ name: ' Week 12 · 第十二周 ' })).name, 'Week 12 · 第十二周');
  t.equal(accepted(body({ name: null })).name, null, 'null is no name');
  t.equal(accepted(body({ name: '   ' })).name, null, 'blank is no name');
  t.equal(accepted(body({ name: ` ${'n'.repeat(200)} ` })).name, 'n'.repeat(200), 'trimmed first');
  t.same(rejected(body({ name: 'n'.repeat(201) })), [
    { field: 'name', message: 'must be at most 200 characters' },
  ]);
  t.same(rejected(body({ name: 'two\nlines' })), [
    {
      field: 'name',
      message: 'must not contain control characters (line breaks, tabs, NUL)',
    },
  ]);
  t.same(rejected(body({ name: 12, prompts: [] })), [
    { field: 'name', message: 'must be a string' },
    { field: 'prompts', message: 'must contain at least one prompt' },
  ]);
});

t.test('every problem is reported in one answer', async (t) => {
  const errors = rejected({
    prompts: ['ok', ' '],
    platforms: [
      { platform: 'nope', mode: 'search' },
      { platform: 'deepseek', mode: 'search', screenshot: '1' },
    ],
    regionCode: 110000,
    callbackUrl: 'ftp://x',
    monitorKeywords: 1,
  });
  t.same(errors.map((e) => e.field).sort(), [
    'callbackUrl',
    'monitorKeywords',
    'platforms[0].platform',
    'platforms[1].mode',
    'platforms[1].screenshot',
    'prompts[1]',
    'regionCode',
  ]);
});

t.test('dedupePlatforms', async (t) => {
  t.same(
    dedupePlatforms([
      { platform: 'OpenAI', mode: 'standard', screenshot: 2 },
      { platform: 'chatgpt', mode: 'search', screenshot: 0 },
      { platform: 'GPT', mode: 'reasoning', screenshot: 1 },
      { platform: 'Claude', mode: 'search', screenshot: 1 },
      { platform: 'anthropic', mode: 'standard', screenshot: 0 },
      { platform: 'CHATGPT', mode: 'search', screenshot: 1 },
    ]),
    [
      { platform: 'chatgpt', channel: 'api', mode: 'standard', screenshot: 2 },
      { platform: 'claude', channel: 'api', mode: 'search', screenshot: 1 },
    ],
    'alias and case duplicates collapse onto the first, under the canonical name',
  );
  t.same(
    dedupePlatforms([
      { platform: 'Mystery', mode: 'standard', screenshot: 0 },
      { platform: 'mystery', mode: 'search', screenshot: 1 },
    ]),
    [{ platform: 'mystery', channel: 'api', mode: 'standard', screenshot: 0 }],
    'unknown names fall back to their lowercase spelling',
  );
  t.same(dedupePlatforms([]), []);
  const input = [{ platform: 'ChatGPT', mode: 'search' as const, screenshot: 1 as const }];
  dedupePlatforms(input);
  t.same(input, [{ platform: 'ChatGPT', mode: 'search', screenshot: 1 }], 'input not mutated');
});

t.test('totalTask is prompts × platforms after dedup', async (t) => {
  const s = accepted({
    prompts: ['a', 'b', 'c'],
    platforms: [
      { platform: 'chatgpt', mode: 'search' },
      { platform: 'openai', mode: 'standard' },
      { platform: 'claude', mode: 'standard' },
      { platform: 'Claude', mode: 'search' },
    ],
  });
  t.equal(s.platforms.length, 2);
  t.equal(planTask('3f2504e0-4f89-41d3-9a0c-0305e82c3301', 1, s, 0).totalItems, 6);
  const big = accepted({
    prompts: Array.from({ length: 50 }, (_, i) => `p${i}`),
    platforms: ['chatgpt', 'claude', 'gemini', 'kimi', 'qwen'].map((platform) => ({
      platform,
      mode: 'standard',
    })),
  });
  t.equal(planTask('3f2504e0-4f89-41d3-9a0c-0305e82c3301', 1, big, 0).totalItems, 250);
});

t.test('regionProblem: unknown and inactive regions are refused', async (t) => {
  const regions = { '310000': { ports: 2, active: 1 }, '110000': { ports: 1, active: 0 } };
  t.equal(regionProblem('310000', regions), undefined);
  t.match(regionProblem('440100', regions), {
    field: 'regionCode[0]',
    message: /440100 is not a region any proxy port serves now/,
  });
  t.match(regionProblem('110000', regions), {
    field: 'regionCode[0]',
    message: /region 110000 has no active proxy port now \(1 inactive\)/,
  });
});

t.test('channel: absent or null takes the operator default; a named one wins', async (t) => {
  const platformsOf = (channel: unknown, choices: Record<string, string> = {}) => {
    const r = checkSubmission(
      body({ platforms: [{ platform: 'deepseek', mode: 'reasoning', channel }] }),
      choices,
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.value.platforms.map((p) => p.channel);
  };
  t.same(platformsOf(undefined), ['api'], 'the default channel');
  t.same(platformsOf(null), ['api'], 'null is not given');
  t.same(platformsOf(undefined, { deepseek: 'web' }), ['web'], 'PLATFORM_CHANNELS');
  t.same(platformsOf('api', { deepseek: 'web' }), ['api'], 'the request wins');
  t.same(platformsOf('web'), ['web']);
});

t.test('channel: an unknown one names the valid values', async (t) => {
  for (const channel of ['browser', 'Web', 1, true, [], {}]) {
    t.same(
      rejected(body({ platforms: [{ platform: 'deepseek', mode: 'standard', channel }] })),
      [{ field: 'platforms[0].channel', message: 'must be one of api, web' }],
      JSON.stringify(channel),
    );
  }
});

t.test('channel: a pair the catalogue does not have', async (t) => {
  t.same(
    rejected(body({ platforms: [{ platform: 'anthropic', mode: 'search', channel: 'web' }] })),
    [{ field: 'platforms[0].channel', message: 'claude has no web channel; its channels: api' }],
  );
  t.same(
    rejected(body({ platforms: [{ platform: 'sandbox-web', mode: 'search', channel: 'api' }] })),
    [
      {
        field: 'platforms[0].channel',
        message: 'sandbox-web has no api channel; its channels: web',
      },
    ],
  );
});

t.test('channel: the mode must be one the pair runs', async (t) => {
  t.same(
    rejected(body({ platforms: [{ platform: 'deepseek', mode: 'search', channel: 'api' }] })),
    [
      {
        field: 'platforms[0].mode',
        message:
          'deepseek does not support mode search on the api channel; supported: standard, reasoning',
      },
    ],
  );
  t.same(
    accepted(body({ platforms: [{ platform: 'deepseek', mode: 'search', channel: 'web' }] }))
      .platforms,
    [{ platform: 'deepseek', channel: 'web', mode: 'search', screenshot: 0 }],
    'the site searches where the API cannot',
  );
  const r = checkSubmission(body({ platforms: [{ platform: 'deepseek', mode: 'search' }] }), {
    deepseek: 'web',
  });
  t.ok(r.ok, 'the operator default channel decides the modes of a request without one');
});

/** One live node that runs these pairs in Shanghai, and web accounts by platform. */
const factsOf = (
  pairs: string[],
  accounts: Record<string, (string | null)[]> = {},
): AvailabilityFacts => ({
  nodes: [
    {
      id: 'n',
      capacity: 1,
      regions: ['310000', '310100'],
      channels: ['api', 'web'],
      platforms: [...new Set(pairs.map((p) => p.split(':')[0]!))],
      pairs,
    },
  ],
  accounts,
});

t.test('channel: a pair no live crawler node runs', async (t) => {
  const offered = factsOf(['deepseek:api', 'sandbox:api', 'sandbox:web', 'sandbox-web:web'], {
    deepseek: [null],
  });
  const r = checkSubmission(
    body({
      platforms: [
        { platform: 'deepseek', mode: 'reasoning' },
        { platform: 'deepseek', mode: 'reasoning', channel: 'web' },
        { platform: 'sandbox-web', mode: 'search' },
        { platform: 'kimi', mode: 'search' },
      ],
    }),
    {},
    offered,
  );
  t.same(r.ok ? [] : r.errors, [
    {
      field: 'platforms[1].platform',
      message:
        "deepseek is unavailable on the web channel: no live crawler node runs it (a web channel needs a node whose CRAWLER_CHANNELS include web and that has the site's driver); available: deepseek (api), sandbox (api, web), sandbox-web (web)",
    },
    {
      field: 'platforms[3].platform',
      message:
        "kimi is unavailable on the api channel: no live crawler node runs it (a vendor's API channel needs its API key on the node); available: deepseek (api), sandbox (api, web), sandbox-web (web)",
    },
  ]);
  const none = checkSubmission(
    body({ platforms: [{ platform: 'sandbox', mode: 'search' }] }),
    {},
    factsOf([]),
  );
  t.match(none.ok ? '' : none.errors[0]!.message, /; available: none$/);
});

t.test('a web pair without a usable account, anywhere or in the region', async (t) => {
  const facts = factsOf(['deepseek:api', 'deepseek:web', 'sandbox:web'], { deepseek: ['110100'] });
  const web = [{ platform: 'deepseek', mode: 'search', channel: 'web' }];
  const refused = (input: Record<string, unknown>, f: AvailabilityFacts) => {
    const r = checkSubmission(input, {}, f);
    return r.ok ? [] : r.errors;
  };
  t.same(
    refused(body({ platforms: web }), factsOf(['deepseek:web'])),
    [
      {
        field: 'platforms[0].platform',
        message:
          'deepseek is unavailable on the web channel: no usable account (an operator adds one: `npm run admin -- account add`); available: none',
      },
    ],
    'no account at all',
  );
  t.same(refused(body({ platforms: web }), facts), [], 'without region: an account anywhere');
  t.same(
    refused(body({ platforms: web, regionCode: ['310100'] }), facts),
    [
      {
        field: 'platforms[0].platform',
        message:
          'deepseek is unavailable on the web channel: no usable account in region 310100 (usable ones: 110100) (an operator adds one: `npm run admin -- account add`); available: deepseek (api), sandbox (web)',
      },
    ],
    'none in the region the request names',
  );
  t.same(
    refused(body({ platforms: web, regionCode: ['110100'] }), facts).map((e) => e.message),
    [
      "deepseek is unavailable on the web channel: no live crawler node runs it in region 110100 (a web channel needs a node whose CRAWLER_CHANNELS include web and that has the site's driver); available: none",
    ],
    'an account there, but no node that runs the pair serves the region',
  );
  t.same(
    refused(body({ platforms: web }), { nodes: [], accounts: {} }).map((e) => e.message),
    [
      'deepseek is unavailable on the web channel: no usable account (an operator adds one: `npm run admin -- account add`)',
    ],
    'no crawler node up yet: the missing account is still known; nothing is listed as available',
  );
  t.same(
    refused(body({ platforms: web }), { nodes: [], accounts: { deepseek: [null] } }),
    [],
    'no crawler node up yet, an account: accepted, the work waits',
  );
});

t.test('channel: every violated rule is listed together', async (t) => {
  const offered = factsOf(['sandbox:api']);
  t.same(
    rejected({
      prompts: ['p'],
      platforms: [
        { platform: 'deepseek', mode: 'standard', channel: 'browser' },
        { platform: 'claude', mode: 'standard', channel: 'web' },
        { platform: 'deepseek', mode: 'search', channel: 'api' },
        { platform: 'sandbox', mode: 'search', channel: 'web' },
        { platform: 'sandbox', mode: 'search' },
      ],
    }).map((e) => e.field),
    ['platforms[0].channel', 'platforms[1].channel', 'platforms[2].mode'],
    'without availability known',
  );
  const r = checkSubmission(
    {
      prompts: ['p'],
      platforms: [
        { platform: 'deepseek', mode: 'standard', channel: 'browser' },
        { platform: 'deepseek', mode: 'search', channel: 'api' },
        { platform: 'sandbox', mode: 'search', channel: 'web' },
        { platform: 'sandbox', mode: 'search' },
      ],
    },
    {},
    offered,
  );
  t.same(
    r.ok ? [] : r.errors.map((e) => e.field),
    ['platforms[0].channel', 'platforms[1].mode', 'platforms[1].platform', 'platforms[2].platform'],
    'with availability known',
  );
});

t.test('dedupe by (name, channel): a platform once per channel', async (t) => {
  const s = accepted({
    prompts: ['a', 'b'],
    platforms: [
      { platform: 'deepseek', mode: 'reasoning' },
      { platform: 'DeepSeek', mode: 'search', channel: 'web', screenshot: 1 },
      { platform: 'deepseek', mode: 'standard', channel: 'api' },
      { platform: 'deepseek', mode: 'standard', channel: 'web' },
      { platform: 'demo', mode: 'search', channel: 'web' },
      { platform: 'sandbox', mode: 'standard', channel: null },
      { platform: 'sandbox', mode: 'standard', channel: 'api' },
    ],
  });
  t.same(s.platforms, [
    { platform: 'deepseek', channel: 'api', mode: 'reasoning', screenshot: 0 },
    { platform: 'deepseek', channel: 'web', mode: 'search', screenshot: 1 },
    { platform: 'sandbox', channel: 'web', mode: 'search', screenshot: 0 },
    { platform: 'sandbox', channel: 'api', mode: 'standard', screenshot: 0 },
  ]);
  t.equal(planTask('3f2504e0-4f89-41d3-9a0c-0305e82c3301', 1, s, 0).totalItems, 8);
  t.same(
    dedupePlatforms(
      [
        { platform: 'deepseek', mode: 'standard' },
        { platform: 'deepseek', mode: 'search', channel: 'web' },
      ],
      { deepseek: 'web' },
    ),
    [{ platform: 'deepseek', channel: 'web', mode: 'standard', screenshot: 0 }],
    'the operator default counts as the channel named',
  );
});
