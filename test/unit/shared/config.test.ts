import t from 'tap';
import { loadConfig, VENDOR_PLATFORMS } from '../../../services/shared/config.js';
import { AppError } from '../../../services/shared/errors.js';

function configError(env: Record<string, string | undefined>): AppError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('loadConfig accepted the environment');
}

function fields(err: AppError): string[] {
  return (err.data as { field: string }[]).map((p) => p.field);
}

t.test('an empty environment gives every default', async (t) => {
  const c = loadConfig({});
  t.match(c.nodeId, /^.+-\d+-[0-9a-f]{6}$/, 'generated node id: host-pid-random');
  const rest: Record<string, unknown> = { ...c };
  delete rest.nodeId;
  delete rest.platforms;
  t.same(Object.keys(c.platforms), VENDOR_PLATFORMS, 'every vendor platform, none credentialed');
  t.same(
    VENDOR_PLATFORMS,
    ['chatgpt', 'claude', 'gemini', 'perplexity', 'deepseek', 'doubao', 'kimi', 'qwen'].concat([
      'yuanbao',
      'wenxin',
      'zhipu',
      'grok',
    ]),
    'the definitions that are not simulations',
  );
  for (const p of Object.values(c.platforms)) {
    t.same(p, {
      apiKeys: [],
      baseUrl: undefined,
      models: {},
      timeoutMs: undefined,
      web: { url: undefined, quota: undefined, gapMs: undefined, timeoutMs: undefined, models: {} },
    });
  }
  t.same(rest, {
    host: '127.0.0.1',
    port: 3000,
    publicBaseUrl: undefined,
    mongoUrl: 'mongodb://127.0.0.1:27017/',
    mongoDb: 'monitor',
    transporter: undefined,
    namespace: 'monitor',
    services: [
      'api',
      'tasks',
      'users',
      'scheduler',
      'crawler',
      'callbacks',
      'proxies',
      'accounts',
      'monitors',
    ],
    logLevel: 'info',
    tokenTtlSeconds: 7200,
    jwtSecret: undefined,
    jwtIssuer: 'ai-answer-monitor',
    jwtAudience: 'ai-answer-monitor-api',
    rateLimitPerSecond: 20,
    rateLimitBurst: 60,
    maxUnfinishedSubtasks: 10000,
    maxBodyBytes: 1048576,
    requestTimeoutMs: 10000,
    retentionDays: 30,
    scheduling: {
      maxAttempts: 3,
      leaseMs: 30000,
      retryBaseMs: 2000,
      retryMaxMs: 60000,
      regionWaitMs: 60000,
      leaderTtlMs: 10000,
      platformConcurrency: {},
      defaultPlatformConcurrency: 50,
      platformChannels: {},
    },
    crawler: {
      capacity: 4,
      prefetch: 1,
      proxies: [],
      proxyCheckUrl: undefined,
      proxyCheckMs: 30000,
      channels: ['api', 'web'],
      chromiumPath: '/usr/bin/chromium',
      keptPages: 4,
      keptPageIdleMs: 600000,
      drainMs: 60000,
    },
    sandbox: { url: undefined, latencyMs: 1500, failureRate: 0, timeoutMs: 60000 },
    analysis: null,
    callbacks: {
      retryDelaysMs: [15000, 60000, 300000, 900000, 3600000, 14400000, 43200000],
      connectTimeoutMs: 10000,
      readTimeoutMs: 30000,
      pollMs: 1000,
      sweepMs: 30000,
      allowCidrs: [],
    },
    accounts: { key: undefined, waitMs: 60000, holdMs: 600000, gapJitter: 0.3 },
    proxies: { forgetMs: 600000, resyncMs: 30000 },
    events: { maxPerUser: 5, heartbeatMs: 15000, refreshMs: 2000 },
    metrics: { port: undefined, cacheMs: 5000 },
    logFormat: 'text',
  });
});

t.test('callback settings', async (t) => {
  const c = loadConfig({
    CALLBACK_RETRY_DELAYS_MS: '10, 20,30',
    CALLBACK_CONNECT_TIMEOUT_MS: '500',
    CALLBACK_READ_TIMEOUT_MS: '700',
    CALLBACK_POLL_MS: '20',
    CALLBACK_ALLOW_CIDRS: '127.0.0.0/8, ::1/128',
  });
  t.same(c.callbacks, {
    retryDelaysMs: [10, 20, 30],
    connectTimeoutMs: 500,
    readTimeoutMs: 700,
    pollMs: 20,
    sweepMs: 30000,
    allowCidrs: ['127.0.0.0/8', '::1/128'],
  });
  const err = configError({
    CALLBACK_RETRY_DELAYS_MS: '15s,1m',
    CALLBACK_ALLOW_CIDRS: '127.0.0.1',
    CALLBACK_POLL_MS: '1',
  });
  t.same(fields(err).sort(), [
    'CALLBACK_ALLOW_CIDRS',
    'CALLBACK_POLL_MS',
    'CALLBACK_RETRY_DELAYS_MS',
  ]);
  t.same(loadConfig({ SERVICES: 'callbacks' }).services, ['callbacks']);
});

t.test('proxy registry settings', async (t) => {
  const c = loadConfig({ PROXY_FORGET_MS: '60000', PROXY_RESYNC_MS: '500' });
  t.same(c.proxies, { forgetMs: 60000, resyncMs: 500 });
  t.same(loadConfig({ SERVICES: 'proxies' }).services, ['proxies']);
  t.same(fields(configError({ PROXY_FORGET_MS: '999', PROXY_RESYNC_MS: 'soon' })).sort(), [
    'PROXY_FORGET_MS',
    'PROXY_RESYNC_MS',
  ]);
});

t.test('scheduling, crawler and sandbox settings', async (t) => {
  const c = loadConfig({
    PLATFORM_CONCURRENCY: 'ChatGPT=5, sandbox=100',
    PLATFORM_CHANNELS: 'deepseek=web',
    CRAWLER_CHANNELS: 'web',
    SANDBOX_URL: 'http://127.0.0.1:9999/',
  });
  t.same(c.scheduling.platformConcurrency, { chatgpt: 5, sandbox: 100 });
  t.same(c.scheduling.platformChannels, { deepseek: 'web' });
  t.same(c.crawler.channels, ['web']);
  t.equal(c.sandbox.url, 'http://127.0.0.1:9999');
  const err = (() => {
    try {
      loadConfig({ PLATFORM_CONCURRENCY: 'chatgpt', CRAWLER_CHANNELS: 'ftp', MAX_ATTEMPTS: '0' });
    } catch (e) {
      return e as AppError;
    }
  })();
  t.same(((err?.data ?? []) as { field: string }[]).map((p) => p.field).sort(), [
    'CRAWLER_CHANNELS',
    'MAX_ATTEMPTS',
    'PLATFORM_CONCURRENCY',
  ]);
});

t.test('vendor platform variables: keys, base URL, models, timeout, concurrency', async (t) => {
  const c = loadConfig({
    CHATGPT_API_KEY: 'sk-a, sk-b',
    CHATGPT_BASE_URL: 'https://gateway.example/v1/',
    CHATGPT_MODELS: 'standard=gpt-4.1, reasoning_search=o3',
    CHATGPT_TIMEOUT_MS: '90000',
    CHATGPT_CONCURRENCY: '7',
    PLATFORM_CONCURRENCY: 'chatgpt=2,claude=3',
    WENXIN_API_KEY: 'bce-v3/x',
    KIMI_WEB_URL: 'http://127.0.0.1:9000/',
    KIMI_WEB_QUOTA: '30/3h',
    KIMI_WEB_GAP_MS: '20000',
    YUANBAO_WEB_MODELS: 'standard=deepseek,reasoning=hunyuan',
  });
  t.same(c.platforms.chatgpt, {
    apiKeys: ['sk-a', 'sk-b'],
    baseUrl: 'https://gateway.example/v1',
    models: { standard: 'gpt-4.1', reasoning_search: 'o3' },
    timeoutMs: 90000,
    web: { url: undefined, quota: undefined, gapMs: undefined, timeoutMs: undefined, models: {} },
  });
  t.same(c.platforms.kimi!.web, {
    url: 'http://127.0.0.1:9000',
    quota: { prompts: 30, perMs: 3 * 3_600_000 },
    gapMs: 20000,
    timeoutMs: undefined,
    models: {},
  });
  t.same(c.platforms.yuanbao!.web.models, { standard: 'deepseek', reasoning: 'hunyuan' });
  t.same(c.platforms.wenxin!.apiKeys, ['bce-v3/x']);
  t.same(c.scheduling.platformConcurrency, { chatgpt: 7, claude: 3 }, 'the platform variable wins');
  const err = (() => {
    try {
      loadConfig({
        CLAUDE_BASE_URL: 'ftp://x',
        GEMINI_MODELS: 'fast=x',
        QWEN_TIMEOUT_MS: '5',
        DOUBAO_WEB_QUOTA: 'lots',
        ACCOUNTS_KEY: 'short',
      });
    } catch (e) {
      return e as AppError;
    }
  })();
  t.same(fields(err!).sort(), [
    'ACCOUNTS_KEY',
    'CLAUDE_BASE_URL',
    'DOUBAO_WEB_QUOTA',
    'GEMINI_MODELS',
    'QWEN_TIMEOUT_MS',
  ]);
});

t.test('two loads without NODE_ID get different node ids', async (t) => {
  t.not(loadConfig({}).nodeId, loadConfig({}).nodeId);
});

t.test('set variables are parsed and typed', async (t) => {
  const c = loadConfig({
    HOST: '10.0.0.5',
    PORT: '8080',
    MONGO_URL: 'mongodb+srv://db.example.com/',
    MONGO_DB: 'mon_test-1',
    TRANSPORTER: ' nats://127.0.0.1:4222 ',
    NAMESPACE: 'staging',
    NODE_ID: 'node-a',
    LOG_LEVEL: 'debug',
    TOKEN_TTL: '60',
    JWT_SECRET: 's'.repeat(32),
    JWT_ISSUER: 'iss',
    JWT_AUDIENCE: 'aud',
    RATE_LIMIT_RPS: '0.5',
    RATE_LIMIT_BURST: '5',
    MAX_UNFINISHED_SUBTASKS: '7',
    MAX_BODY_BYTES: '2048',
    REQUEST_TIMEOUT_MS: '250',
    RETENTION_DAYS: '3',
  });
  t.equal(c.host, '10.0.0.5');
  t.equal(c.port, 8080);
  t.equal(c.publicBaseUrl, undefined, 'not derived from HOST/PORT: requests tell it');
  t.equal(c.mongoUrl, 'mongodb+srv://db.example.com/');
  t.equal(c.mongoDb, 'mon_test-1');
  t.equal(c.transporter, 'nats://127.0.0.1:4222', 'trimmed');
  t.equal(c.namespace, 'staging');
  t.equal(c.nodeId, 'node-a');
  t.equal(c.logLevel, 'debug');
  t.equal(c.tokenTtlSeconds, 60);
  t.equal(c.jwtSecret, 's'.repeat(32));
  t.equal(c.jwtIssuer, 'iss');
  t.equal(c.jwtAudience, 'aud');
  t.equal(c.rateLimitPerSecond, 0.5);
  t.equal(c.rateLimitBurst, 5);
  t.equal(c.maxUnfinishedSubtasks, 7);
  t.equal(c.maxBodyBytes, 2048);
  t.equal(c.requestTimeoutMs, 250);
  t.equal(c.retentionDays, 3);
});

t.test('blank optional text variables count as unset', async (t) => {
  const c = loadConfig({ TRANSPORTER: '  ', NODE_ID: '', JWT_SECRET: ' ', SERVICES: ' ' });
  t.equal(c.transporter, undefined);
  t.equal(c.jwtSecret, undefined);
  t.match(c.nodeId, /^.+-\d+-[0-9a-f]{6}$/);
  t.same(c.services, [
    'api',
    'tasks',
    'users',
    'scheduler',
    'crawler',
    'callbacks',
    'proxies',
    'accounts',
    'monitors',
  ]);
});

t.test('the result is frozen', async (t) => {
  const c = loadConfig({});
  t.ok(Object.isFrozen(c));
  t.throws(() => {
    (c as { port: number }).port = 1;
  }, TypeError);
  t.equal(c.port, 3000);
});

t.test('every bad variable is reported together in one CONFIG_INVALID error', async (t) => {
  const err = configError({
    PORT: '70000',
    MONGO_URL: 'http://db',
    MONGO_DB: 'bad name!',
    TRANSPORTER: 'redis://x',
    LOG_LEVEL: 'loud',
    TOKEN_TTL: '59',
    JWT_SECRET: 'short',
    RATE_LIMIT_RPS: '0',
    RATE_LIMIT_BURST: '1.5',
    MAX_BODY_BYTES: '1023',
    REQUEST_TIMEOUT_MS: 'abc',
    RETENTION_DAYS: '0',
    MAX_UNFINISHED_SUBTASKS: '0',
    PUBLIC_BASE_URL: 'not a url',
    SERVICES: 'api,mailer',
  });
  t.equal(err.code, 500);
  t.equal(err.type, 'CONFIG_INVALID');
  t.same(fields(err).sort(), [
    'JWT_SECRET',
    'LOG_LEVEL',
    'MAX_BODY_BYTES',
    'MAX_UNFINISHED_SUBTASKS',
    'MONGO_DB',
    'MONGO_URL',
    'PORT',
    'PUBLIC_BASE_URL',
    'RATE_LIMIT_BURST',
    'RATE_LIMIT_RPS',
    'REQUEST_TIMEOUT_MS',
    'RETENTION_DAYS',
    'SERVICES',
    'TOKEN_TTL',
    'TRANSPORTER',
  ]);
  t.match(err.message, /^invalid configuration: /);
  for (const f of fields(err)) t.match(err.message, f, `message names ${f}`);
  const byField = Object.fromEntries(
    (err.data as { field: string; message: string }[]).map((p) => [p.field, p.message]),
  );
  t.equal(byField.MONGO_URL, 'must start with mongodb:// or mongodb+srv://');
  t.equal(byField.MONGO_DB, 'letters, digits, _ and - only, at most 60');
  t.equal(byField.TRANSPORTER, 'only nats:// transporters are supported');
  t.equal(byField.JWT_SECRET, 'must be at least 32 characters when set');
  t.equal(
    byField.SERVICES,
    'unknown service(s) mailer; valid: api, tasks, users, scheduler, crawler, callbacks, proxies, accounts, monitors, all',
  );
});

t.test('a single bad variable is reported alone', async (t) => {
  const err = configError({ PORT: '-1' });
  t.equal(err.type, 'CONFIG_INVALID');
  t.same(fields(err), ['PORT']);
});

t.test('PORT bounds', async (t) => {
  t.equal(loadConfig({ PORT: '0' }).port, 0);
  t.equal(loadConfig({ PORT: '65535' }).port, 65535);
  t.same(fields(configError({ PORT: '65536' })), ['PORT']);
  t.same(fields(configError({ PORT: '80.5' })), ['PORT']);
  t.same(fields(configError({ PORT: 'http' })), ['PORT']);
});

t.test('an empty PORT does not silently become port 0', async (t) => {
  // `PORT=` (e.g. a blank line in an env file) should mean "unset" (3000) or be refused;
  // listening on a random ephemeral port with publicBaseUrl ...:0 is never intended.
  let port: number | undefined;
  let refused: AppError | undefined;
  try {
    port = loadConfig({ PORT: '' }).port;
  } catch (err) {
    refused = err as AppError;
  }
  if (refused) t.same(fields(refused), ['PORT'], 'refused as a PORT problem');
  else t.equal(port, 3000, 'blank PORT falls back to the default');
});

t.test('JWT_SECRET must be at least 32 characters', async (t) => {
  t.same(fields(configError({ JWT_SECRET: 'x'.repeat(31) })), ['JWT_SECRET']);
  t.equal(loadConfig({ JWT_SECRET: 'x'.repeat(32) }).jwtSecret, 'x'.repeat(32));
  t.same(
    fields(configError({ JWT_SECRET: `  ${'x'.repeat(31)}  ` })),
    ['JWT_SECRET'],
    'padding does not count towards the length',
  );
});

t.test('SERVICES parsing', async (t) => {
  const every = [
    'api',
    'tasks',
    'users',
    'scheduler',
    'crawler',
    'callbacks',
    'proxies',
    'accounts',
    'monitors',
  ];
  t.same(loadConfig({ SERVICES: 'all' }).services, every);
  t.same(loadConfig({ SERVICES: ' all ' }).services, every);
  t.same(loadConfig({ SERVICES: '' }).services, every);
  t.same(loadConfig({ SERVICES: 'tasks' }).services, ['tasks']);
  t.same(loadConfig({ SERVICES: ' users , api ' }).services, ['users', 'api']);
  t.same(loadConfig({ SERVICES: 'api,api,tasks' }).services, ['api', 'tasks'], 'deduplicated');
  const err = configError({ SERVICES: 'api,mail,queue' });
  t.same(err.data, [
    {
      field: 'SERVICES',
      message:
        'unknown service(s) mail, queue; valid: api, tasks, users, scheduler, crawler, callbacks, proxies, accounts, monitors, all',
    },
  ]);
  t.same(fields(configError({ SERVICES: 'API' })), ['SERVICES'], 'names are case-sensitive');
});

t.test('SERVICES with only separators is not an empty service list', async (t) => {
  // '' and 'all' mean every service; ',' silently yields a node that runs nothing.
  let services: readonly string[] | undefined;
  try {
    services = loadConfig({ SERVICES: ',' }).services;
  } catch (err) {
    t.equal((err as AppError).type, 'CONFIG_INVALID', 'refused');
    return;
  }
  t.not(services.length, 0, 'a node must run at least one service');
});

t.test('PUBLIC_BASE_URL', async (t) => {
  t.equal(
    loadConfig({ PUBLIC_BASE_URL: 'https://monitor.example.com/' }).publicBaseUrl,
    'https://monitor.example.com',
    'trailing slashes stripped',
  );
  t.equal(
    loadConfig({ PUBLIC_BASE_URL: 'https://example.com/monitor//' }).publicBaseUrl,
    'https://example.com/monitor',
  );
  t.equal(loadConfig({ HOST: 'api.local', PORT: '81' }).publicBaseUrl, undefined);
  t.equal(
    loadConfig({ HOST: '0.0.0.0', PUBLIC_BASE_URL: 'http://x.test' }).publicBaseUrl,
    'http://x.test',
  );
});

t.test('crawler prefetch: a tenth of the capacity unless set', async (t) => {
  t.equal(loadConfig({ CRAWLER_CAPACITY: '50' }).crawler.prefetch, 5);
  t.equal(loadConfig({ CRAWLER_CAPACITY: '1' }).crawler.prefetch, 1);
  t.equal(loadConfig({ CRAWLER_CAPACITY: '50', CRAWLER_PREFETCH: '0' }).crawler.prefetch, 0);
  t.equal(loadConfig({ CRAWLER_PREFETCH: ' ' }).crawler.prefetch, 1, 'blank is unset');
  t.throws(() => loadConfig({ CRAWLER_PREFETCH: '-1' }), /CRAWLER_PREFETCH/);
  t.throws(() => loadConfig({ CRAWLER_PREFETCH: '1000' }), /CRAWLER_PREFETCH/);
});

t.test('the sentiment judge: a platform with an API channel, by any of its names', async (t) => {
  t.same(loadConfig({ ANALYSIS_PLATFORM: 'DeepSeek', ANALYSIS_MODEL: 'deepseek-chat' }).analysis, {
    platform: 'deepseek',
    model: 'deepseek-chat',
    maxAttempts: 3,
    pollMs: 1000,
  });
  t.equal(loadConfig({ ANALYSIS_PLATFORM: ' ' }).analysis, null, 'blank is unset');
  t.throws(
    () => loadConfig({ ANALYSIS_PLATFORM: 'nope' }),
    /ANALYSIS_PLATFORM must name a platform/,
  );
  t.throws(
    () => loadConfig({ ANALYSIS_PLATFORM: 'sandbox', ANALYSIS_MAX_ATTEMPTS: '0' }),
    /ANALYSIS_MAX_ATTEMPTS/,
  );
});

t.test('kept account pages: the capacity unless set', async (t) => {
  t.equal(loadConfig({ CRAWLER_CAPACITY: '7' }).crawler.keptPages, 7);
  t.equal(loadConfig({ CRAWLER_CAPACITY: '7', WEB_KEPT_PAGES: '0' }).crawler.keptPages, 0);
  t.equal(loadConfig({ WEB_PAGE_IDLE_MS: '5000' }).crawler.keptPageIdleMs, 5000);
  t.throws(() => loadConfig({ WEB_KEPT_PAGES: '-1' }), /WEB_KEPT_PAGES/);
  t.throws(() => loadConfig({ WEB_PAGE_IDLE_MS: '10' }), /WEB_PAGE_IDLE_MS/);
});

t.test('proxy ports: inline JSON or a file, every problem reported', async (t) => {
  const port = {
    port: 8001,
    url: 'http://u:p@127.0.0.1:8001',
    regionCode: '310100',
    outIp: '127.0.0.2',
  };
  const c = loadConfig({
    CRAWLER_PROXIES: JSON.stringify([
      port,
      { ...port, port: 8002, url: 'http://127.0.0.1:8002', regionCode: ['110000'], city: '北京' },
    ]),
    PROXY_CHECK_URL: 'http://127.0.0.1:9/ip',
    PROXY_CHECK_MS: '500',
  });
  t.same(c.crawler.proxies, [
    { ...port, regionCode: ['310100'] },
    { ...port, port: 8002, url: 'http://127.0.0.1:8002', regionCode: ['110000'], city: '北京' },
  ]);
  t.equal(c.crawler.proxyCheckUrl, 'http://127.0.0.1:9/ip');
  t.equal(c.crawler.proxyCheckMs, 500);

  const dir = t.testdir({ 'ports.json': JSON.stringify([port]) });
  t.same(loadConfig({ CRAWLER_PROXIES_FILE: `${dir}/ports.json` }).crawler.proxies, [
    { ...port, regionCode: ['310100'] },
  ]);

  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (e) {
      return (e as AppError).message;
    }
    return '';
  };
  t.match(problems({ CRAWLER_PROXIES: '[{' }), /CRAWLER_PROXIES is not JSON/);
  const bad = problems({
    CRAWLER_PROXIES: JSON.stringify([
      { port: 0, url: 'ftp://x', regionCode: '3101', outIp: 'nope' },
    ]),
  });
  t.match(bad, /entry 0\.port/);
  t.match(bad, /entry 0\.url: must be an http:\/\/ or https:\/\/ proxy URL/);
  t.match(bad, /entry 0\.regionCode/);
  t.match(bad, /entry 0\.outIp: must be an IPv4 or IPv6 address/);
  t.match(problems({ CRAWLER_PROXIES: JSON.stringify([port, port]) }), /listed twice/);
  t.match(problems({ CRAWLER_PROXIES: '[]', CRAWLER_PROXIES_FILE: '/x.json' }), /not both/);
  t.match(
    problems({ CRAWLER_PROXIES_FILE: `${dir}/missing.json` }),
    /CRAWLER_PROXIES_FILE cannot be read/,
  );
});

t.test('events stream settings', async (t) => {
  const c = loadConfig({ SSE_MAX_PER_USER: '2', SSE_HEARTBEAT_MS: '500', SSE_REFRESH_MS: '100' });
  t.same(c.events, { maxPerUser: 2, heartbeatMs: 500, refreshMs: 100 });
  t.same(fields(configError({ SSE_MAX_PER_USER: '0', SSE_HEARTBEAT_MS: 'often' })).sort(), [
    'SSE_HEARTBEAT_MS',
    'SSE_MAX_PER_USER',
  ]);
});

t.test('metrics and log settings', async (t) => {
  const c = loadConfig({ METRICS_PORT: '3030', METRICS_CACHE_MS: '0', LOG_FORMAT: 'json' });
  t.same(c.metrics, { port: 3030, cacheMs: 0 });
  t.equal(c.logFormat, 'json');
  t.same(
    fields(configError({ METRICS_PORT: '0', METRICS_CACHE_MS: '-1', LOG_FORMAT: 'xml' })).sort(),
    ['LOG_FORMAT', 'METRICS_CACHE_MS', 'METRICS_PORT'],
    'port 0 is refused: the reporter would listen on every interface',
  );
});
