import t from 'tap';
import { urlIdentity } from '../../../../../crawler/platforms/common/url-identity.js';

const same = (a: string, b: string) => urlIdentity(a) === urlIdentity(b);

t.test('trackers, fragments, order and a trailing slash do not make another page', async (t) => {
  const pairs: [string, string][] = [
    ['https://a.example/x?utm_source=openai', 'https://a.example/x'],
    ['https://a.example/?utm_source=chatgpt.com', 'https://a.example/'],
    ['https://a.example/x?UTM_Medium=cpc&utm_campaign=y&id=3', 'https://a.example/x?id=3'],
    ['https://a.example/x?gclid=1&fbclid=2&msclkid=3&srsltid=4', 'https://a.example/x'],
    ['https://help.aliyun.example/doc?spm=a2c4g.1.0.0', 'https://help.aliyun.example/doc'],
    ['https://a.example/x#:~:text=acme', 'https://a.example/x'],
    ['https://a.example/x/', 'https://a.example/x'],
    ['https://a.example', 'https://a.example/'],
    ['https://a.example/x?b=2&a=1', 'https://a.example/x?a=1&b=2'],
    ['HTTPS://A.Example:443/x', 'https://a.example/x'],
    ['  https://a.example/x ', 'https://a.example/x'],
  ];
  for (const [a, b] of pairs) t.ok(same(a, b), `${a} ≡ ${b}`);
});

t.test('what can name another page stays significant', async (t) => {
  const pairs: [string, string][] = [
    ['https://a.example/x?id=1', 'https://a.example/x?id=2'],
    ['https://a.example/x?id=1', 'https://a.example/x'],
    ['https://a.example/X', 'https://a.example/x'],
    ['http://a.example/x', 'https://a.example/x'],
    ['https://www.a.example/x', 'https://a.example/x'],
    ['https://a.example:8443/x', 'https://a.example/x'],
    ['https://a.example/x?utm=1', 'https://a.example/x'],
    ['https://a.example/x?ref=home', 'https://a.example/x'],
  ];
  for (const [a, b] of pairs) t.notOk(same(a, b), `${a} ≢ ${b}`);
});

t.test('anything that is not a web URL is its own key', async (t) => {
  t.equal(urlIdentity('not a url'), 'not a url');
  t.equal(urlIdentity('mailto:x@a.example?utm_source=y'), 'mailto:x@a.example?utm_source=y');
  t.equal(urlIdentity(''), '');
});
