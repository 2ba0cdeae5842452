import t from 'tap';
import { crawlerAdvert } from '../../../crawler/advert.js';
import { loadConfig } from '../../../services/shared/config.js';
import { driverFor } from '../../../crawler/platforms/index.js';

t.test('a node advertises the (platform, channel) pairs it has drivers for', async (t) => {
  const advert = crawlerAdvert(
    loadConfig({ DEEPSEEK_API_KEY: 'sk-test', CRAWLER_CHANNELS: 'api,web' }),
  );
  t.ok(advert.platforms.includes('deepseek'), 'credentialed vendor');
  t.notOk(advert.platforms.includes('claude'), 'vendor without a key');
  t.ok(advert.pairs!.includes('deepseek:api'));
  for (const site of ['doubao', 'deepseek', 'kimi']) {
    t.equal(
      advert.pairs!.includes(`${site}:web`),
      driverFor(site, 'web') !== undefined,
      `${site}: a web pair exactly when this build has the site's driver, key or not`,
    );
  }
  t.ok(advert.pairs!.includes('sandbox-web:web'));
  t.ok(
    advert.pairs!.every((p) => advert.platforms.includes(p.split(':')[0]!)),
    'only advertised platforms',
  );
  t.ok(advert.pairs!.includes('sandbox:web'));
  t.notOk(advert.pairs!.includes('sandbox-cn:web'), 'sandbox-cn has no web channel');
  t.notOk(advert.pairs!.includes('sandbox-web:api'), 'sandbox-web has no API channel');
  t.notOk(advert.pairs!.includes('claude:web'), 'claude has no web channel');
  const apiOnly = crawlerAdvert(loadConfig({ CRAWLER_CHANNELS: 'api' }));
  t.notOk(
    apiOnly.pairs!.some((p) => p.endsWith(':web')),
    'no web pairs on a node that does not run the web channel',
  );
});
