import t from 'tap';
import { originAllowList, parseOriginPattern } from '../../../crawler/origin-allow.js';

t.test('an exact origin allows itself and nothing else', async (t) => {
  const allowed = originAllowList(['http://127.0.0.1:4100']);
  for (const url of [
    'http://127.0.0.1:4100/',
    'http://127.0.0.1:4100/api/chat?x=1#y',
    'ws://127.0.0.1:4100/socket',
  ])
    t.ok(allowed(url), url);
  for (const url of [
    'http://127.0.0.1:4101/',
    'https://127.0.0.1:4100/',
    'http://127.0.0.2:4100/',
    'http://localhost:4100/',
    'https://content-autofill.googleapis.com/v1/pages',
    'https://accounts.google.com/ListAccounts',
    'http://update.googleapis.com/service/update2',
  ])
    t.notOk(allowed(url), url);
});

t.test('default ports are filled in on both sides', async (t) => {
  const allowed = originAllowList(['https://chat.deepseek.com', 'http://example.test:80']);
  t.ok(allowed('https://chat.deepseek.com:443/a'));
  t.ok(allowed('wss://chat.deepseek.com/ws'));
  t.ok(allowed('http://example.test/'));
  t.notOk(allowed('https://chat.deepseek.com:8443/a'));
  t.notOk(allowed('http://chat.deepseek.com/'), 'the scheme is part of the origin');
});

t.test('`*.` allows every subdomain, never the bare domain or look-alikes', async (t) => {
  const allowed = originAllowList(['https://www.doubao.com', 'https://*.byteimg.com']);
  t.ok(allowed('https://www.doubao.com/chat/'));
  t.ok(allowed('https://lf3-static.bytednsdoc.byteimg.com/x.js'));
  t.ok(allowed('https://p9.byteimg.com/img.png'));
  t.notOk(allowed('https://byteimg.com/'), 'the bare domain needs its own entry');
  t.notOk(allowed('https://evilbyteimg.com/'), 'a suffix that is not a label boundary');
  t.notOk(allowed('https://byteimg.com.evil.test/'));
  t.notOk(allowed('http://p9.byteimg.com/img.png'), 'plain http is another origin');
  t.notOk(allowed('https://doubao.com/'));
});

t.test('requests that never reach the network pass; odd ones are refused', async (t) => {
  const allowed = originAllowList(['https://kimi.moonshot.cn']);
  t.ok(allowed('data:image/png;base64,AAAA'));
  t.ok(allowed('blob:https://kimi.moonshot.cn/6c1f-4c2d'));
  t.ok(allowed('about:blank'));
  t.notOk(allowed('ftp://kimi.moonshot.cn/'));
  t.notOk(allowed('chrome-extension://abc/x.js'));
  t.notOk(allowed('https://user:pw@kimi.moonshot.cn/'), 'credentials in a URL are refused');
  t.notOk(allowed('not a url'));
  t.notOk(allowed(''));
});

t.test('nothing declared: nothing reachable', async (t) => {
  const allowed = originAllowList([]);
  t.notOk(allowed('http://127.0.0.1:4100/'));
  t.ok(allowed('about:blank'));
});

t.test('host names compare case-insensitively, as URLs do', async (t) => {
  const allowed = originAllowList(['https://Chat.DeepSeek.com', 'https://*.Static.DeepSeek.com']);
  t.ok(allowed('https://chat.deepseek.com/'));
  t.ok(allowed('https://CDN.static.deepseek.COM/a.js'));
});

t.test('bad patterns throw at once, naming the pattern', async (t) => {
  for (const [pattern, why] of [
    ['chat.deepseek.com', /not a URL/],
    ['ftp://files.test', /http or https/],
    ['wss://chat.deepseek.com', /http or https/],
    ['https://chat.deepseek.com/chat', /no path, query or fragment/],
    ['https://chat.deepseek.com?x', /no path, query or fragment/],
    ['https://chat.deepseek.com/#', /no path, query or fragment/],
    ['https://u:p@chat.deepseek.com', /credentials/],
    ['https://cdn.*.deepseek.com', /leading `\*\.`/],
    ['https://*.com', /at least two labels/],
    ['*', /not a URL/],
  ] as const) {
    t.throws(() => originAllowList([pattern]), { type: 'CONFIG_INVALID', message: why }, pattern);
    t.throws(() => parseOriginPattern(pattern), { message: JSON.stringify(pattern) }, pattern);
  }
});

t.test('a pattern parses to its parts', async (t) => {
  t.same(parseOriginPattern('https://*.deepseek.com'), {
    scheme: 'https:',
    host: 'deepseek.com',
    anySubdomain: true,
    port: '443',
  });
  t.same(parseOriginPattern('http://127.0.0.1:4100/'), {
    scheme: 'http:',
    host: '127.0.0.1',
    anySubdomain: false,
    port: '4100',
  });
  t.same(parseOriginPattern('http://[::1]:8080').host, '[::1]');
});
