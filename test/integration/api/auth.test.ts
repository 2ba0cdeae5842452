import t from 'tap';
import { importPKCS8, SignJWT } from 'jose';
import { envelopeOf, tokenDataSchema } from '../../../services/shared/contracts/http.js';
import { startEmbedded } from '../../helpers/cluster.js';

const TOKEN = '/api/business/auth/token';
const LIST = '/api/business/monitor/task/list';

const svc = await startEmbedded(t, { TOKEN_TTL: '600' });
const u = await svc.newUser();

/** Signs with the cluster's real private key, so only the claim under test is wrong. */
async function forge(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const conn = await svc.db();
  const stored = (await conn.collection('settings').findOne({ _id: 'jwt-signing-key' as never }))!;
  const key = await importPKCS8(stored.privateKeyPkcs8 as string, 'EdDSA');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'EdDSA', ...header })
    .setSubject(String(claims.sub ?? u.userId))
    .setIssuer((claims.iss as string) ?? 'ai-answer-monitor')
    .setAudience((claims.aud as string) ?? 'ai-answer-monitor-api')
    .setIssuedAt((claims.iat as number) ?? now)
    .setExpirationTime((claims.exp as number) ?? now + 60)
    .sign(key);
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

t.test('token exchange', async (t) => {
  const res = await svc.client.post(TOKEN, { apiKey: u.apiKey });
  t.equal(res.status, 200);
  const { data } = envelopeOf(tokenDataSchema).parse(res.body);
  t.equal(data.tokenType, 'Bearer');
  t.equal(data.expiresIn, 600);
  t.equal((await svc.client.get(LIST, data.accessToken)).status, 200);

  const bad: [unknown, number, RegExp][] = [
    [{}, 400, /apiKey: is required/],
    [{ apiKey: 5 }, 400, /apiKey: must be a string/],
    [{ apiKey: 'nope' }, 401, /invalid API key/],
    [
      { apiKey: u.apiKey.slice(0, -1) + (u.apiKey.endsWith('A') ? 'B' : 'A') },
      401,
      /invalid or revoked API key/,
    ],
    [['x'], 400, /JSON object/],
  ];
  for (const [body, status, message] of bad) {
    const r = await svc.client.post(TOKEN, body);
    t.equal(r.status, status, JSON.stringify(body));
    t.match(r.body.message, message);
  }
});

t.test('revoked API keys cannot get tokens', async (t) => {
  const v = await svc.newUser('victim');
  const keys = await svc.broker.call<{ keyId: string }[], object>('users.listKeys', {
    userId: v.userId,
  });
  await svc.broker.call('users.revokeKey', { keyId: keys[0]!.keyId });
  const r = await svc.client.post(TOKEN, { apiKey: v.apiKey });
  t.equal(r.status, 401);
  t.match(r.body.message, /revoked/);
});

t.test('every bad token is a 401 that says why', async (t) => {
  const now = Math.floor(Date.now() / 1000);
  const [header, payload] = u.token.split('.');
  const cases: [string, Record<string, string>, RegExp][] = [
    ['missing', {}, /^missing token/],
    ['not bearer', { authorization: `Basic ${u.token}` }, /^invalid token: expected/],
    ['empty bearer', { authorization: 'Bearer ' }, /^invalid token/],
    ['malformed', { authorization: 'Bearer abc.def' }, /^invalid token/],
    [
      'wrong signature',
      { authorization: `Bearer ${header}.${payload}.${'A'.repeat(86)}` },
      /^invalid token/,
    ],
    [
      'alg none',
      { authorization: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${payload}.` },
      /^invalid token/,
    ],
    [
      'expired',
      { authorization: `Bearer ${await forge({ iat: now - 7200, exp: now - 60 })}` },
      /^token expired/,
    ],
    [
      'other audience',
      { authorization: `Bearer ${await forge({ aud: 'someone-else' })}` },
      /^invalid token: aud/,
    ],
    [
      'other issuer',
      { authorization: `Bearer ${await forge({ iss: 'evil' })}` },
      /^invalid token: iss/,
    ],
    ['bad subject', { authorization: `Bearer ${await forge({ sub: 'root' })}` }, /^invalid token/],
  ];
  for (const [name, headers, message] of cases) {
    const r = await svc.client.request('GET', LIST, { headers });
    t.equal(r.status, 401, name);
    t.match(r.body, { success: false, code: 401, data: null }, name);
    t.match(r.body.message, message, name);
  }
  t.equal(
    (
      await svc.client.request('GET', LIST, {
        headers: { authorization: `Bearer ${await forge({})}` },
      })
    ).status,
    200,
    'a well-formed forged-with-the-real-key token passes: the checks above are real',
  );
});

t.test('HS256 from JWT_SECRET: alg is pinned both ways', async (t) => {
  const hs = await startEmbedded(t, { JWT_SECRET: 's'.repeat(40) });
  const user = await hs.newUser();
  t.equal((await hs.client.get(LIST, user.token)).status, 200);
  t.equal(
    (await hs.client.get(LIST, u.token)).status,
    401,
    'an EdDSA token of another deployment is refused',
  );
  const secret = new TextEncoder().encode('s'.repeat(40));
  const hs512 = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS512' })
    .setSubject(String(user.userId))
    .setIssuer('ai-answer-monitor')
    .setAudience('ai-answer-monitor-api')
    .setExpirationTime('1h')
    .sign(new Uint8Array([...secret, ...secret]));
  t.equal((await hs.client.get(LIST, hs512)).status, 401, 'another HMAC algorithm is refused');
});
