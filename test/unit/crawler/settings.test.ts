import t from 'tap';
import { credentialedPlatforms, settingsResolver } from '../../../crawler/settings.js';
import { loadConfig } from '../../../services/shared/config.js';

const sandbox = { url: 'http://127.0.0.1:7000', timeoutMs: 5_000 };

t.test('the sandboxes run both of their channels against the local stand-in', async (t) => {
  const settingsFor = settingsResolver(sandbox);
  const local = {
    apiBaseUrl: 'http://127.0.0.1:7000',
    webUrl: 'http://127.0.0.1:7000/',
    apiKey: 'sandbox',
    timeoutMs: 5_000,
  };
  t.same(settingsFor('sandbox', 'api'), local);
  t.same(settingsFor('sandbox', 'web'), local);
  t.same(settingsFor('sandbox-web', 'web'), local);
  t.equal(settingsFor('sandbox-web', 'api'), undefined, 'a channel it does not have');
  t.equal(settingsFor('sandbox-cn', 'web'), undefined);
});

t.test('a vendor API channel: the definition defaults under the configuration', async (t) => {
  const config = loadConfig({
    DEEPSEEK_API_KEY: 'k1,k2',
    DEEPSEEK_MODELS: 'reasoning=deepseek-v4',
    DEEPSEEK_TIMEOUT_MS: '9000',
  });
  const settingsFor = settingsResolver(sandbox, config.platforms);
  t.same(settingsFor('deepseek', 'api'), {
    apiBaseUrl: 'https://api.deepseek.com',
    webUrl: '',
    apiKey: 'k1',
    models: { standard: 'deepseek-chat', reasoning: 'deepseek-v4' },
    timeoutMs: 9000,
  });
  t.equal(settingsFor('deepseek', 'api')!.apiKey, 'k2', 'keys take turns');
  t.equal(settingsFor('chatgpt', 'api'), undefined, 'no API key: no API settings');
  t.same(credentialedPlatforms(config.platforms), ['deepseek']);
});

t.test(
  'a web channel needs no API key: its site from the configuration or the definition',
  async (t) => {
    const plain = settingsResolver(sandbox, loadConfig({}).platforms);
    t.same(plain('deepseek', 'web'), {
      apiBaseUrl: '',
      webUrl: 'https://chat.deepseek.com',
      models: {},
      timeoutMs: 180_000,
    });
    t.equal(plain('kimi', 'web')!.webUrl, 'https://www.kimi.com');
    t.equal(plain('doubao', 'web')!.webUrl, 'https://www.doubao.com');
    t.equal(plain('claude', 'web'), undefined, 'claude has no web channel');
    const replica = settingsResolver(
      sandbox,
      loadConfig({
        KIMI_WEB_URL: 'http://127.0.0.1:9100/',
        KIMI_WEB_TIMEOUT_MS: '30000',
        YUANBAO_WEB_MODELS: 'reasoning=deepseek',
      }).platforms,
    );
    t.same(replica('kimi', 'web'), {
      apiBaseUrl: '',
      webUrl: 'http://127.0.0.1:9100',
      models: {},
      timeoutMs: 30_000,
    });
    t.same(replica('yuanbao', 'web')!.models, { reasoning: 'deepseek' }, "the site's own model");
    t.equal(plain('moonshot', 'web'), undefined, 'canonical names only');
  },
);
