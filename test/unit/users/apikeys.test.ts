import t from 'tap';
import { createHash } from 'node:crypto';
import { generateApiKey, hashApiKey, looksLikeApiKey } from '../../../services/users/apikeys.js';

t.test('generated keys have the amk_<keyId>_<secret> format', async (t) => {
  const k = generateApiKey();
  t.match(k.keyId, /^[0-9a-f]{12}$/);
  t.match(k.apiKey, /^amk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  t.equal(k.apiKey.slice(0, 17), `amk_${k.keyId}_`);
  t.equal(k.apiKey.length, 4 + 12 + 1 + 43);
  t.equal(k.hash, hashApiKey(k.apiKey));
  t.equal(looksLikeApiKey(k.apiKey), true);
});

t.test('generated keys are unique', async (t) => {
  const keys = Array.from({ length: 200 }, () => generateApiKey());
  t.equal(new Set(keys.map((k) => k.apiKey)).size, 200);
  t.equal(new Set(keys.map((k) => k.keyId)).size, 200);
  t.equal(new Set(keys.map((k) => k.hash)).size, 200);
  t.same(
    keys.filter((k) => !looksLikeApiKey(k.apiKey)).map((k) => k.apiKey),
    [],
    'every generated key passes looksLikeApiKey',
  );
});

t.test('hashApiKey is a stable SHA-256 hex digest', async (t) => {
  const key = `amk_0123456789ab_${'A'.repeat(43)}`;
  t.equal(hashApiKey(key), hashApiKey(key));
  t.equal(hashApiKey(key), createHash('sha256').update(key).digest('hex'));
  t.match(hashApiKey(key), /^[0-9a-f]{64}$/);
  t.equal(
    hashApiKey('abc'),
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    'known SHA-256 vector',
  );
  t.not(hashApiKey(key), hashApiKey(`${key.slice(0, -1)}B`), 'one character differs');
  t.not(hashApiKey(key), hashApiKey(key.toLowerCase()));
});

t.test('looksLikeApiKey', async (t) => {
  const good = `amk_0123456789ab_${'Az09-_'.repeat(7)}x`;
  t.equal(good.length, 60);
  t.equal(looksLikeApiKey(good), true);
  for (const [bad, why] of [
    [good.replace('amk_', 'AMK_'), 'prefix is lowercase'],
    [good.replace('amk_', 'amx_'), 'wrong prefix'],
    [good.slice(4), 'no prefix'],
    [good.replace('0123456789ab', '0123456789AB'), 'keyId is lowercase hex'],
    [good.replace('0123456789ab', '0123456789a'), 'keyId too short'],
    [good.replace('0123456789ab', '0123456789abc'), 'keyId too long'],
    [good.replace('0123456789ab', '0123456789ag'), 'keyId not hex'],
    [good.slice(0, -1), 'secret too short'],
    [`${good}x`, 'secret too long'],
    [`${good.slice(0, -1)}=`, 'no padding characters'],
    [`${good.slice(0, -1)}+`, 'base64url, not base64'],
    [`${good}\n`, 'trailing newline'],
    [` ${good}`, 'leading space'],
    [`Bearer ${good}`, 'with a scheme'],
    ['', 'empty'],
  ] as const) {
    t.equal(looksLikeApiKey(bad), false, why);
  }
  t.equal(looksLikeApiKey(undefined), false);
  t.equal(looksLikeApiKey(null), false);
  t.equal(looksLikeApiKey(42), false);
  t.equal(looksLikeApiKey([good]), false);
  t.equal(looksLikeApiKey({ toString: () => good }), false);
});
