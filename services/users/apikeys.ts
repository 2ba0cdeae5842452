/**
 * API key format and hashing, pure. Keys carry 256 random bits, so a plain
 * SHA-256 is a safe stored form (no password stretching needed).
 */
import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'amk_';

export interface NewApiKey {
  keyId: string;
  apiKey: string;
  hash: string;
}

export function generateApiKey(): NewApiKey {
  const keyId = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const apiKey = `${PREFIX}${keyId}_${secret}`;
  return { keyId, apiKey, hash: hashApiKey(apiKey) };
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

export function looksLikeApiKey(value: unknown): value is string {
  return typeof value === 'string' && /^amk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/.test(value);
}
