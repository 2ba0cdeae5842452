/**
 * Access tokens: short-lived JWTs signed with EdDSA (a key pair kept in
 * MongoDB, so every node shares it) or HS256 when JWT_SECRET is configured.
 * The algorithm is pinned on verification, and iss/aud/exp are checked.
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
import { AppError } from '../shared/errors.js';

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

export class TokenVerifier {
  private constructor(
    private readonly alg: Alg,
    private readonly key: Key,
  ) {}

  static async from(material: VerificationMaterial): Promise<TokenVerifier> {
    const key =
      material.alg === 'HS256'
        ? new TextEncoder().encode(material.key)
        : await importSPKI(material.key, 'EdDSA');
    return new TokenVerifier(material.alg, key);
  }

  /** Returns the user id, or throws a 401 AppError saying why the token is refused. */
  async verify(
    token: string,
    s: Pick<TokenSettings, 'issuer' | 'audience'>,
    nowMs: number,
  ): Promise<number> {
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
      return userId;
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
