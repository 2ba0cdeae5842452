import t from 'tap';
import {
  acceptLanguage,
  identityContextOptions,
  languagesFor,
} from '../../../crawler/web/identity.js';

t.test('a regional locale lists its bare language after it', async (t) => {
  t.same(languagesFor('zh-CN'), ['zh-CN', 'zh']);
  t.same(languagesFor('en'), ['en']);
  t.equal(acceptLanguage('zh-CN'), 'zh-CN,zh;q=0.9');
  t.equal(acceptLanguage('ja'), 'ja');
});

t.test('the identity becomes the context options, nothing else', async (t) => {
  const storageState = { cookies: [], origins: [] };
  t.same(identityContextOptions({ storageState, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' }), {
    storageState,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    extraHTTPHeaders: { 'Accept-Language': 'zh-CN,zh;q=0.9' },
  });
});
