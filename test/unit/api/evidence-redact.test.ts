/** The request a bundle shows (services/api/evidence/redact.ts): credentials removed, the rest as sent. */
import t from 'tap';
import { REMOVED, redactUrl, requestsSent } from '../../../services/api/evidence/redact.js';

t.test('credential-like query parameters and userinfo are removed', async (t) => {
  t.equal(
    redactUrl('https://u:p@chat.example.com/api?access_token=abc&q=acme&sign=1&key=k'),
    `https://chat.example.com/api?access_token=${encodeURIComponent(REMOVED)}&q=acme&sign=1&key=${encodeURIComponent(REMOVED)}`,
  );
  t.equal(redactUrl('not a url'), 'not a url');
});

t.test('request lines only, JSON body fields removed at any depth', async (t) => {
  const ndjson = [
    JSON.stringify({
      t: 0,
      kind: 'request',
      url: 'https://chat.example.com/api/chat?session_id=s1',
      method: 'POST',
      body: JSON.stringify({
        prompt: 'Which CRM?',
        keywords: ['Acme'],
        auth: { apiKey: 'secret', user: 'me' },
        headers: [{ Authorization: 'Bearer x' }],
      }),
    }),
    JSON.stringify({ t: 5, kind: 'frame', data: '{"kind":"request"}' }),
    'not json "request"',
    JSON.stringify({ t: 6, kind: 'request', url: 'https://x.test/', method: 'GET', body: 'a=b' }),
  ].join('\n');
  t.same(requestsSent(ndjson), [
    {
      t: 0,
      kind: 'request',
      url: `https://chat.example.com/api/chat?session_id=${encodeURIComponent(REMOVED)}`,
      method: 'POST',
      body: JSON.stringify({
        prompt: 'Which CRM?',
        keywords: ['Acme'],
        auth: REMOVED,
        headers: [{ Authorization: REMOVED }],
      }),
    },
    { t: 6, kind: 'request', url: 'https://x.test/', method: 'GET', body: 'a=b' },
  ]);
});
