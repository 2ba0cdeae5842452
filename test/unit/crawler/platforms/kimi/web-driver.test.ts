/**
 * The Kimi web driver's pure parts: where it opens and logs in, which origins
 * its pages may reach and which chat calls it captures (its walls are
 * recognised by the kit: test/integration/web/site-contract.test.ts).
 */
import t from 'tap';
import { kimiWeb } from '../../../../../crawler/platforms/kimi/web/index.js';
import { KIMI } from '../../../../../crawler/platforms/kimi/web/driver.js';
import type { PlatformSettings } from '../../../../../crawler/platforms/types.js';

const settings = (webUrl: string): { settings: PlatformSettings } => ({
  settings: { apiBaseUrl: '', webUrl, timeoutMs: 1_000 },
});
const job = { prompt: 'x', mode: 'standard' as const, signal: new AbortController().signal };

t.test(
  'start, login and origins: the configured site; the real one adds its API and CDN hosts',
  async (t) => {
    const replica = settings('http://127.0.0.1:4100/some/path');
    t.equal(kimiWeb.startUrl(job, replica), 'http://127.0.0.1:4100/');
    t.equal(kimiWeb.loginUrl(replica), 'http://127.0.0.1:4100/');
    t.same(kimiWeb.origins(replica), ['http://127.0.0.1:4100']);
    const real = kimiWeb.origins(settings('https://www.kimi.com/'));
    t.same(real, [
      'https://www.kimi.com',
      'https://kimi.com',
      'https://*.kimi.com',
      'https://*.moonshot.cn',
    ]);
  },
);

t.test('the chat calls of both builds are captured, nothing else', async (t) => {
  const CHAT_CALL = KIMI.call.url;
  t.match('https://www.kimi.com/apiv2/kimi.gateway.chat.v1.ChatService/Chat', CHAT_CALL);
  t.match('https://kimi.moonshot.cn/api/chat/cs3i1hkl7l5ddmn1c2og/completion/stream', CHAT_CALL);
  t.notMatch('https://www.kimi.com/apiv2/kimi.chat.v1.ChatService/ListChats', CHAT_CALL);
  t.notMatch('https://www.kimi.com/api/chat/cs3i1hkl7l5ddmn1c2og', CHAT_CALL);
});
