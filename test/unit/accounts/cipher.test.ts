import t from 'tap';
import { randomBytes } from 'node:crypto';
import { open, requireKey, seal } from '../../../services/accounts/cipher.js';

const key = randomBytes(32);
const text = JSON.stringify({ cookies: [{ name: 'session', value: 'tok-123' }], origins: [] });

t.test('a sealed state opens to the same text under its key', async (t) => {
  const sealed = seal(text, key);
  t.equal(open(sealed, key), text);
  t.notOk(Buffer.from(sealed, 'base64').toString('latin1').includes('tok-123'));
  t.not(seal(text, key), sealed, 'a fresh IV each time');
  t.equal(Buffer.from(sealed, 'base64').length, 12 + 16 + Buffer.byteLength(text));
});

t.test('another key is refused, without the key or the text in the message', async (t) => {
  const sealed = seal(text, key);
  const other = randomBytes(32);
  t.throws(() => open(sealed, other), { message: /cannot be decrypted/, code: 500 });
  try {
    open(sealed, other);
  } catch (err) {
    const message = (err as Error).message;
    t.notOk(message.includes(other.toString('base64')) || message.includes('tok-123'));
  }
});

t.test('any changed byte is refused', async (t) => {
  const bytes = Buffer.from(seal(text, key), 'base64');
  for (const at of [0, 11, 12, 27, 28, bytes.length - 1]) {
    const changed = Buffer.from(bytes);
    changed[at] = changed[at]! ^ 0x01;
    t.throws(
      () => open(changed.toString('base64'), key),
      { message: /cannot be decrypted/ },
      `byte ${at}`,
    );
  }
  t.throws(
    () => open(bytes.subarray(0, 20).toString('base64'), key),
    /cannot be decrypted/,
    'cut short',
  );
});

t.test('no key: an error that names ACCOUNTS_KEY', async (t) => {
  t.throws(() => requireKey(undefined), { message: /^ACCOUNTS_KEY is not set/, code: 503 });
  t.equal(requireKey(key), key);
});
