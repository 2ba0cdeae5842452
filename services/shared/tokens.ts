/**
 * Access tokens: short-lived JWTs signed with EdDSA (a key pair kept in
 * MongoDB, so every node shares it) or HS256 when JWT_SECRET is configured.
 * The algorithm is pinned on verification, and iss/aud/exp are checked.
 * Verified tokens are remembered until they expire: a client polls with the
 * same token many times a second, and a signature check costs far more than
 * the request it guards.
 */
import {
  type CryptoKey,
  errors,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  importPKCS8,
  importSPKI,
  jwtVerify,
  SignJWT,
} from 'jose';
import { AppError } from './errors.js';

export type Alg = 'EdDSA' | 'HS256';

/** Serializable key material; the public half is what verifiers receive. */
export interface StoredSigningKey {
  alg: 'EdDSA';
  privateKeyPkcs8: string;
  publicKeySpki: string;
}

export interface VerificationMaterial {
  alg: Alg;
  /** SPKI PEM for EdDSA, the shared secret for HS256. */
  key: string;
}

export interface TokenSettings {
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

type Key = CryptoKey | Uint8Array;

export async function newSigningKey(): Promise<StoredSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
  return {
    alg: 'EdDSA',
    privateKeyPkcs8: await exportPKCS8(privateKey),
    publicKeySpki: await exportSPKI(publicKey),
  };
}

export class TokenSigner {
  private constructor(
    private readonly alg: Alg,
    private readonly key: Key,
    readonly verification: VerificationMaterial,
  ) {}

  static async fromSecret(secret: string): Promise<TokenSigner> {
    return new TokenSigner('HS256', new TextEncoder().encode(secret), {
      alg: 'HS256',
      key: secret,
    });
  }

  static async fromStored(stored: StoredSigningKey): Promise<TokenSigner> {
    const key = await importPKCS8(stored.privateKeyPkcs8, 'EdDSA');
    return new TokenSigner('EdDSA', key, { alg: 'EdDSA', key: stored.publicKeySpki });
  }

  async issue(
    claims: { userId: number; keyId: string },
    s: TokenSettings,
    nowMs: number,
  ): Promise<string> {
    const iat = Math.floor(nowMs / 1000);
    return new SignJWT({ kid: claims.keyId })
      .setProtectedHeader({ alg: this.alg, typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuer(s.issuer)
      .setAudience(s.audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + s.ttlSeconds)
      .sign(this.key);
  }
}

/** Verified tokens remembered at most; the oldest is forgotten first. */
export const VERIFIED_TOKENS_KEPT = 10_000;

/** What a verification established about a token, valid while its time window holds. */
interface Verified {
  userId: number;
  issuer: string;
  audience: string;
  /** Seconds since the epoch, as in the claims. */
  exp: number;
  nbf: number | undefined;
}

export class TokenVerifier {
  private readonly verified = new Map<string, Verified>();

  private constructor(
    private readonly alg: Alg,
    private readonly key: Key,
    private readonly kept: number,
  ) {}

  static async from(
    material: VerificationMaterial,
    kept = VERIFIED_TOKENS_KEPT,
  ): Promise<TokenVerifier> {
    const key =
      material.alg === 'HS256'
        ? new TextEncoder().encode(material.key)
        : await importSPKI(material.key, 'EdDSA');
    return new TokenVerifier(material.alg, key, kept);
  }

  /** How many verified tokens are remembered now. */
  get remembered(): number {
    return this.verified.size;
  }

  /** Returns the user id, or throws a 401 AppError saying why the token is refused. */
  async verify(
    token: string,
    s: Pick<TokenSettings, 'issuer' | 'audience'>,
    nowMs: number,
  ): Promise<number> {
    const known = this.verified.get(token);
    // The same comparisons jose makes, in whole seconds, so a remembered token ends when it would.
    const now = Math.floor(nowMs / 1000);
    if (
      known &&
      known.issuer === s.issuer &&
      known.audience === s.audience &&
      now < known.exp &&
      (known.nbf === undefined || known.nbf <= now)
    ) {
      return known.userId;
    }
    if (known) this.verified.delete(token);
    const verified = await this.check(token, s, nowMs);
    if (this.verified.size >= this.kept) {
      this.verified.delete(this.verified.keys().next().value!);
    }
    this.verified.set(token, verified);
    return verified.userId;
  }

  private async check(
    token: string,
    s: Pick<TokenSettings, 'issuer' | 'audience'>,
    nowMs: number,
  ): Promise<Verified> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [this.alg],
        issuer: s.issuer,
        audience: s.audience,
        requiredClaims: ['exp', 'sub'],
        currentDate: new Date(nowMs),
      });
      const userId = Number(payload.sub);
      if (!Number.isSafeInteger(userId) || userId < 1)
        throw AppError.unauthorized('invalid token: bad subject');
      return {
        userId,
        issuer: s.issuer,
        audience: s.audience,
        exp: payload.exp!,
        nbf: payload.nbf,
      };
    } catch (err) {
      if (err instanceof errors.JWTExpired)
        throw AppError.unauthorized('token expired: request a new one');
      if (err instanceof errors.JWTClaimValidationFailed) {
        throw AppError.unauthorized(`invalid token: ${err.claim} claim check failed`);
      }
      if (err instanceof AppError) throw err;
      throw AppError.unauthorized('invalid token');
    }
  }
}
