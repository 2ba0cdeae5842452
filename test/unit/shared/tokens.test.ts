import t from 'tap';
import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import {
  newSigningKey,
  TokenSigner,
  TokenVerifier,
  type StoredSigningKey,
} from '../../../services/shared/tokens.js';

const SETTINGS = { issuer: 'ai-answer-monitor', audience: 'ai-answer-monitor-api', ttlSeconds: 60 };
const NOW = 1_700_000_000_000;
const SECRET = 'x'.repeat(32);

const stored: StoredSigningKey = await newSigningKey();
const edSigner = await TokenSigner.fromStored(stored);
const edVerifier = await TokenVerifier.from(edSigner.verification);
const hsSigner = await TokenSigner.fromSecret(SECRET);
const hsVerifier = await TokenVerifier.from(hsSigner.verification);

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function claims(over: Record<string, unknown> = {}) {
  const iat = Math.floor(NOW / 1000);
  return {
    sub: '42',
    iss: SETTINGS.issuer,
    aud: SETTINGS.audience,
    iat,
    exp: iat + 60,
    ...over,
  };
}

function unauthorized(message: string) {
  return { code: 401, type: 'UNAUTHORIZED', message };
}

t.test('newSigningKey gives PEM key material for EdDSA', async (t) => {
  t.equal(stored.alg, 'EdDSA');
  t.match(
    stored.privateKeyPkcs8,
    /^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----/,
  );
  t.match(stored.publicKeySpki, /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----/);
  t.not((await newSigningKey()).publicKeySpki, stored.publicKeySpki, 'a fresh pair each time');
});

t.test('verification material exposes only the public half or the secret', async (t) => {
  t.same(edSigner.verification, { alg: 'EdDSA', key: stored.publicKeySpki });
  t.notMatch(JSON.stringify(edSigner.verification), /PRIVATE KEY/);
  t.same(hsSigner.verification, { alg: 'HS256', key: SECRET });
});

t.test('issued tokens carry the expected header and claims', async (t) => {
  const token = await edSigner.issue({ userId: 42, keyId: 'k1' }, SETTINGS, NOW + 999);
  t.same(decodeProtectedHeader(token), { alg: 'EdDSA', typ: 'JWT' });
  t.same(decodeJwt(token), {
    kid: 'k1',
    sub: '42',
    iss: 'ai-answer-monitor',
    aud: 'ai-answer-monitor-api',
    iat: 1_700_000_000,
    exp: 1_700_000_060,
  });
  const hs = await hsSigner.issue({ userId: 7, keyId: 'k2' }, SETTINGS, NOW);
  t.same(decodeProtectedHeader(hs), { alg: 'HS256', typ: 'JWT' });
});

t.test('a valid token gives its user id', async (t) => {
  const ed = await edSigner.issue({ userId: 42, keyId: 'k' }, SETTINGS, NOW);
  t.equal(await edVerifier.verify(ed, SETTINGS, NOW), 42);
  t.equal(await edVerifier.verify(ed, SETTINGS, NOW + 59_999), 42, 'just before expiry');
  const hs = await hsSigner.issue({ userId: 9001, keyId: 'k' }, SETTINGS, NOW);
  t.equal(await hsVerifier.verify(hs, SETTINGS, NOW), 9001);
});

t.test(
  'a verifier built from stored material verifies tokens of another signer instance',
  async (t) => {
    const signer2 = await TokenSigner.fromStored(stored);
    const token = await signer2.issue({ userId: 5, keyId: 'k' }, SETTINGS, NOW);
    t.equal(await edVerifier.verify(token, SETTINGS, NOW), 5);
    const verifier2 = await TokenVerifier.from({ alg: 'EdDSA', key: stored.publicKeySpki });
    t.equal(await verifier2.verify(token, SETTINGS, NOW), 5);
  },
);

t.test('an expired token is refused with a 401 saying so', async (t) => {
  const token = await edSigner.issue({ userId: 42, keyId: 'k' }, SETTINGS, NOW);
  await t.rejects(
    edVerifier.verify(token, SETTINGS, NOW + 61_000),
    unauthorized('token expired: request a new one'),
  );
  await t.rejects(
    edVerifier.verify(token, SETTINGS, NOW + 60_000),
    unauthorized('token expired: request a new one'),
    'expired exactly at exp',
  );
  await t.rejects(edVerifier.verify(token, SETTINGS, NOW + 86_400_000), {
    code: 401,
    message: /expired/,
  });
});

t.test('wrong audience or issuer is refused', async (t) => {
  const token = await edSigner.issue({ userId: 42, keyId: 'k' }, SETTINGS, NOW);
  await t.rejects(
    edVerifier.verify(token, { ...SETTINGS, audience: 'other-api' }, NOW),
    unauthorized('invalid token: aud claim check failed'),
  );
  await t.rejects(
    edVerifier.verify(token, { ...SETTINGS, issuer: 'someone-else' }, NOW),
    unauthorized('invalid token: iss claim check failed'),
  );
  const foreign = await edSigner.issue(
    { userId: 42, keyId: 'k' },
    { ...SETTINGS, issuer: 'evil', audience: 'evil' },
    NOW,
  );
  await t.rejects(edVerifier.verify(foreign, SETTINGS, NOW), {
    code: 401,
    type: 'UNAUTHORIZED',
    message: /^invalid token/,
  });
});

t.test('a token signed by another key is refused', async (t) => {
  const other = await TokenSigner.fromStored(await newSigningKey());
  const token = await other.issue({ userId: 42, keyId: 'k' }, SETTINGS, NOW);
  await t.rejects(edVerifier.verify(token, SETTINGS, NOW), unauthorized('invalid token'));
  const otherHs = await TokenSigner.fromSecret('y'.repeat(32));
  const hs = await otherHs.issue({ userId: 42, keyId: 'k' }, SETTINGS, NOW);
  await t.rejects(hsVerifier.verify(hs, SETTINGS, NOW), unauthorized('invalid token'));
});

t.test('a tampered token is refused', async (t) => {
  const token = await edSigner.issue({ userId: 42, keyId: 'k' }, SETTINGS, NOW);
  const [h, , s] = token.split('.');
  const forged = `${h}.${b64url(claims({ sub: '1' }))}.${s}`;
  await t.rejects(edVerifier.verify(forged, SETTINGS, NOW), unauthorized('invalid token'));
});

t.test('an unsigned alg:none token is refused', async (t) => {
  const crafted = `${b64url({ alg: 'none' })}.${b64url(claims())}.`;
  await t.rejects(edVerifier.verify(crafted, SETTINGS, NOW), unauthorized('invalid token'));
  await t.rejects(hsVerifier.verify(crafted, SETTINGS, NOW), unauthorized('invalid token'));
  const typed = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims())}.`;
  await t.rejects(edVerifier.verify(typed, SETTINGS, NOW), unauthorized('invalid token'));
  const viaJose = new UnsecuredJWT(claims()).encode();
  await t.rejects(edVerifier.verify(viaJose, SETTINGS, NOW), unauthorized('invalid token'));
});

t.test('algorithm confusion: HS256 tokens are refused by an EdDSA verifier', async (t) => {
  const hs = await hsSigner.issue({ userId: 42, keyId: 'k' }, SETTINGS, NOW);
  await t.rejects(edVerifier.verify(hs, SETTINGS, NOW), unauthorized('invalid token'));
  // The classic attack: HMAC-sign with the (public) verification key as the secret.
  const withPublicKey = await new SignJWT(claims())
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(stored.publicKeySpki));
  await t.rejects(edVerifier.verify(withPublicKey, SETTINGS, NOW), unauthorized('invalid token'));
  const ed = await edSigner.issue({ userId: 42, keyId: 'k' }, SETTINGS, NOW);
  await t.rejects(hsVerifier.verify(ed, SETTINGS, NOW), unauthorized('invalid token'));
});

t.test('garbage is refused', async (t) => {
  for (const garbage of [
    '',
    'garbage',
    'a.b.c',
    'a.b',
    '...',
    `${b64url({ alg: 'EdDSA' })}.not-json.sig`,
    '\u0000',
  ]) {
    await t.rejects(
      edVerifier.verify(garbage, SETTINGS, NOW),
      unauthorized('invalid token'),
      JSON.stringify(garbage),
    );
  }
});

t.test('exp and sub are required', async (t) => {
  const key = new TextEncoder().encode(SECRET);
  const sign = (payload: Record<string, unknown>) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(key);
  const noExp: Record<string, unknown> = claims();
  delete noExp.exp;
  await t.rejects(
    hsVerifier.verify(await sign(noExp), SETTINGS, NOW),
    unauthorized('invalid token: exp claim check failed'),
  );
  const noSub: Record<string, unknown> = claims();
  delete noSub.sub;
  await t.rejects(
    hsVerifier.verify(await sign(noSub), SETTINGS, NOW),
    unauthorized('invalid token: sub claim check failed'),
  );
  t.equal(await hsVerifier.verify(await sign(claims()), SETTINGS, NOW), 42, 'control');
});

t.test('the subject must be a positive integer user id', async (t) => {
  const key = new TextEncoder().encode(SECRET);
  for (const sub of ['abc', '0', '-3', '1.5', '9007199254740993']) {
    const token = await new SignJWT(claims({ sub })).setProtectedHeader({ alg: 'HS256' }).sign(key);
    await t.rejects(
      hsVerifier.verify(token, SETTINGS, NOW),
      unauthorized('invalid token: bad subject'),
      `sub ${sub}`,
    );
  }
});

t.test('a remembered token is still refused from its exp on, and for other settings', async (t) => {
  const verifier = await TokenVerifier.from(edSigner.verification);
  const token = await edSigner.issue({ userId: 42, keyId: 'k' }, SETTINGS, NOW);
  t.equal(await verifier.verify(token, SETTINGS, NOW), 42);
  t.equal(verifier.remembered, 1, 'remembered after one verification');
  t.equal(await verifier.verify(token, SETTINGS, NOW + 59_999), 42);
  await t.rejects(
    verifier.verify(token, { ...SETTINGS, audience: 'other-api' }, NOW),
    unauthorized('invalid token: aud claim check failed'),
  );
  t.equal(await verifier.verify(token, SETTINGS, NOW), 42);
  await t.rejects(
    verifier.verify(token, SETTINGS, NOW + 60_000),
    unauthorized('token expired: request a new one'),
  );
  t.equal(verifier.remembered, 0, 'forgotten once expired');
});

t.test('a token before its nbf is refused even once remembered', async (t) => {
  const verifier = await TokenVerifier.from(hsSigner.verification);
  const key = new TextEncoder().encode(SECRET);
  const nbf = Math.floor(NOW / 1000) + 10;
  const token = await new SignJWT(claims({ nbf })).setProtectedHeader({ alg: 'HS256' }).sign(key);
  t.equal(await verifier.verify(token, SETTINGS, NOW + 10_000), 42);
  await t.rejects(verifier.verify(token, SETTINGS, NOW + 9_000), { code: 401 });
});

t.test('refused tokens are not remembered, and the memory is bounded', async (t) => {
  const verifier = await TokenVerifier.from(edSigner.verification, 3);
  await t.rejects(verifier.verify('garbage', SETTINGS, NOW));
  t.equal(verifier.remembered, 0);
  const tokens = await Promise.all(
    [1, 2, 3, 4, 5].map((userId) => edSigner.issue({ userId, keyId: 'k' }, SETTINGS, NOW)),
  );
  for (const [i, token] of tokens.entries())
    t.equal(await verifier.verify(token, SETTINGS, NOW), i + 1);
  t.equal(verifier.remembered, 3, 'at most the bound');
  for (const [i, token] of tokens.entries())
    t.equal(await verifier.verify(token, SETTINGS, NOW), i + 1);
});
