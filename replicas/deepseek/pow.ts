/**
 * The replica's proof-of-work, in the shape of DeepSeek's
 * (`POST /api/v0/chat/create_pow_challenge` → `{algorithm, challenge, salt,
 * signature, difficulty, expire_at, target_path}`; the page answers in the
 * `X-Ds-Pow-Response` header, base64 JSON of the challenge plus `answer`).
 * The real site's hash is a WASM Keccak variant; the replica's own puzzle is
 * cheaper but of the same kind: find `answer` such that
 * SHA-256(`salt_expireAt_answer` + challenge) starts with `difficulty` zero
 * bits. Each challenge is signed by the server and good for one request, so
 * a request replayed without the page's script is refused.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const ALGORITHM = 'ReplicaSha256V1';
export const DIFFICULTY_BITS = 8;
const TTL_MS = 5 * 60_000;

export interface Challenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  difficulty: number;
  expire_at: number;
  expire_after: number;
  target_path: string;
}

export function leadingZeroBits(hash: Buffer): number {
  let bits = 0;
  for (const byte of hash) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

export class PowIssuer {
  private readonly secret = randomBytes(32);
  /** Live challenges by their challenge string; each one answers a single request. */
  private readonly live = new Map<string, Challenge>();

  issue(targetPath: string): Challenge {
    const challenge = randomBytes(32).toString('hex');
    const salt = randomBytes(10).toString('hex');
    const expire_at = Date.now() + TTL_MS;
    const signature = createHmac('sha256', this.secret)
      .update(`${challenge}|${salt}|${expire_at}|${targetPath}`)
      .digest('hex');
    const c: Challenge = {
      algorithm: ALGORITHM,
      challenge,
      salt,
      signature,
      difficulty: DIFFICULTY_BITS,
      expire_at,
      expire_after: TTL_MS,
      target_path: targetPath,
    };
    this.live.set(challenge, c);
    return c;
  }

  /** null when the header answers a live challenge of ours for this path; else why not. */
  check(header: string | undefined, targetPath: string): string | null {
    if (!header) return 'missing X-Ds-Pow-Response';
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as Record<string, unknown>;
    } catch {
      return 'unreadable X-Ds-Pow-Response';
    }
    const c = typeof r.challenge === 'string' ? this.live.get(r.challenge) : undefined;
    if (!c || r.algorithm !== ALGORITHM || r.salt !== c.salt) return 'not a live challenge';
    const given = Buffer.from(String(r.signature));
    const expected = Buffer.from(c.signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return 'bad signature';
    if (r.target_path !== targetPath || c.target_path !== targetPath)
      return 'challenge for another path';
    this.live.delete(c.challenge);
    if (c.expire_at < Date.now()) return 'challenge expired';
    const hash = createHash('sha256')
      .update(`${c.salt}_${c.expire_at}_${String(r.answer)}${c.challenge}`)
      .digest();
    return leadingZeroBits(hash) >= DIFFICULTY_BITS ? null : 'wrong answer';
  }
}
