/**
 * When a kept account page still fits the next sub task: the same proxy,
 * origins, locale, time zone and session, whatever order the account service
 * stored the state in; any change to what identifies the session is a new fit.
 */
import t from 'tap';
import { pageFit, type PageFit } from '../../../crawler/web/kept-pages.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';

const cookie = (name: string, value: string, domain = 'chat.example') => ({
  name,
  value,
  domain,
  path: '/',
  expires: -1,
  httpOnly: true,
  secure: true,
  sameSite: 'Lax' as const,
});
const state: StorageState = {
  cookies: [cookie('sid', 's1'), cookie('uid', 'u1')],
  origins: [
    {
      origin: 'https://chat.example',
      localStorage: [
        { name: 'token', value: 't1' },
        { name: 'theme', value: 'dark' },
      ],
    },
  ],
};
const base: PageFit = {
  proxyUrl: 'http://127.0.0.2:8080',
  allowedOrigins: ['https://chat.example', 'https://cdn.example'],
  storageState: state,
  locale: 'zh-CN',
  timezoneId: 'Asia/Shanghai',
};

t.test('the same session in another order fits', async (t) => {
  const reordered: StorageState = {
    cookies: [...state.cookies].reverse().map((c) => ({ ...c, expires: 1_900_000_000 })),
    origins: state.origins.map((o) => ({ ...o, localStorage: [...o.localStorage].reverse() })),
  };
  t.equal(
    pageFit({
      ...base,
      storageState: reordered,
      allowedOrigins: [...base.allowedOrigins].reverse(),
    }),
    pageFit(base),
    'cookie order, expiry and origin order do not matter',
  );
});

t.test('anything that identifies the page changes the fit', async (t) => {
  const fit = pageFit(base);
  const changed: [string, PageFit][] = [
    [
      'a cookie value',
      { ...base, storageState: { ...state, cookies: [cookie('sid', 's2'), cookie('uid', 'u1')] } },
    ],
    [
      'a cookie domain',
      {
        ...base,
        storageState: {
          ...state,
          cookies: [cookie('sid', 's1', 'x.example'), cookie('uid', 'u1')],
        },
      },
    ],
    [
      'a cookie more',
      { ...base, storageState: { ...state, cookies: [...state.cookies, cookie('n', '1')] } },
    ],
    [
      'local storage',
      {
        ...base,
        storageState: {
          ...state,
          origins: [
            { origin: 'https://chat.example', localStorage: [{ name: 'token', value: 't2' }] },
          ],
        },
      },
    ],
    ['no state', { ...base, storageState: undefined }],
    ['the proxy', { ...base, proxyUrl: 'http://127.0.0.3:8080' }],
    ['direct', { ...base, proxyUrl: undefined }],
    ['the origins', { ...base, allowedOrigins: ['https://chat.example'] }],
    ['the locale', { ...base, locale: 'zh-HK' }],
    ['the time zone', { ...base, timezoneId: 'Asia/Hong_Kong' }],
  ];
  for (const [what, other] of changed) t.not(pageFit(other), fit, what);
});
