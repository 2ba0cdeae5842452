/**
 * Storage states at rest: AES-256-GCM under ACCOUNTS_KEY, a fresh random
 * 96-bit IV per seal, and the auth tag, so a changed byte or another key is
 * refused instead of decrypting to garbage. Sealed text = base64(iv ‖ tag ‖
 * ciphertext). Neither the plaintext nor the key ever reaches a log or an
 * error message.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '../shared/errors.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The error every state-touching action gives when the operator has not set the key. */
export function missingKeyError(): AppError {
  return new AppError(
    'ACCOUNTS_KEY is not set: web-channel account states cannot be stored or read ' +
      '(set it to 32 random bytes, e.g. `openssl rand -base64 32`, the same on every node)',
    503,
    'UNAVAILABLE',
  );
}

export function requireKey(key: Buffer | undefined): Buffer {
  if (!key) throw missingKeyError();
  return key;
}

export function seal(plaintext: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The plaintext; throws when the text was sealed under another key or was changed. */
export function open(sealed: string, key: Buffer): string {
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw unreadable();
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw unreadable();
  }
}

function unreadable(): AppError {
  return new AppError(
    'the stored account state cannot be decrypted: ACCOUNTS_KEY differs from the key it was stored with, or the record was changed',
    500,
    'INTERNAL',
  );
}
