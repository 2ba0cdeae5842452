import t from 'tap';
import { configView } from '../../../bin/config-view.js';
import { loadConfig } from '../../../services/shared/config.js';

t.test('the printed configuration shows that secrets are set, never their values', async (t) => {
  const secrets = {
    JWT_SECRET: 'a-shared-secret-of-at-least-32-characters',
    ACCOUNTS_KEY: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
    CHATGPT_API_KEY: 'sk-first,sk-second',
    MONGO_URL: 'mongodb://aimon:mongo-pass@db-1:27017,db-2:27017/aimon?replicaSet=rs0',
    TRANSPORTER: 'nats://nats-user:nats-pass@nats:4222',
    CRAWLER_PROXIES:
      '[{"port":8001,"url":"http://proxy-user:proxy-pass@proxy-sh:8001","regionCode":"310000","outIp":"203.0.113.7"}]',
  };
  const text = configView(loadConfig(secrets));
  for (const secret of [
    'a-shared-secret',
    'sk-first',
    'sk-second',
    'mongo-pass',
    'nats-pass',
    'proxy-pass',
  ]) {
    t.notOk(text.includes(secret), `${secret} is not printed`);
  }
  const view = JSON.parse(text);
  t.equal(view.jwtSecret, '(set)');
  t.equal(view.accounts.key, '(set)');
  t.equal(view.platforms.chatgpt.apiKeys, '(set)');
  t.equal(view.mongoUrl, 'mongodb://aimon:(set)@db-1:27017,db-2:27017/aimon?replicaSet=rs0');
  t.equal(view.transporter, 'nats://nats-user:(set)@nats:4222');
  t.equal(view.crawler.proxies[0].url, 'http://proxy-user:(set)@proxy-sh:8001');
});

t.test('unset secrets stay absent and everything else is printed as resolved', async (t) => {
  const view = JSON.parse(configView(loadConfig({ PORT: '3100', SERVICES: 'api,users' })));
  t.notOk('jwtSecret' in view);
  t.notOk('key' in view.accounts);
  t.strictSame(view.platforms.chatgpt.apiKeys, []);
  t.match(view, { port: 3100, services: ['api', 'users'], mongoUrl: 'mongodb://127.0.0.1:27017/' });
});
