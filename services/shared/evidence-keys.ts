/**
 * The Ed25519 keys that sign evidence bundles (services/api/evidence/), in
 * the `evidence_keys` collection: one active key signs, retired keys stay so
 * that every bundle signed before a rotation still verifies against the
 * published key set (`/.well-known/jwks.json`). Private keys never leave this
 * module except as a jose KeyLike for signing.
 */
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { Schema, type Connection, type Model } from 'mongoose';

export const EVIDENCE_ALG = 'EdDSA';

interface KeyDoc {
  _id: string;
  publicJwk: JWK;
  privateJwk: JWK;
  createdAt: number;
  /** When a newer key took over signing; null while active. */
  retiredAt: number | null;
}

const schema = new Schema<KeyDoc>(
  { _id: String, publicJwk: Object, privateJwk: Object, createdAt: Number, retiredAt: Number },
  { versionKey: false, collection: 'evidence_keys' },
);

export interface SigningKey {
  kid: string;
  key: Awaited<ReturnType<typeof importJWK>>;
}

export interface PublicKeySet {
  keys: (JWK & { kid: string; alg: string; use: 'sig' })[];
}

export class EvidenceKeys {
  private readonly model: Model<KeyDoc>;

  constructor(connection: Connection) {
    this.model =
      (connection.models.EvidenceKey as Model<KeyDoc>) ?? connection.model('EvidenceKey', schema);
  }

  /**
   * The key that signs now, made on first use. Two nodes making one at once
   * both insert; the oldest active key wins for both, and the other is
   * retired at once, still published, so nothing it signed is lost.
   */
  async active(now: number): Promise<SigningKey> {
    const doc = (await this.oldestActive()) ?? (await this.create(now));
    return { kid: doc._id, key: await importJWK(doc.privateJwk, EVIDENCE_ALG) };
  }

  /** A new active key; the previous ones are retired but kept for verification. Returns the new kid. */
  async rotate(now: number): Promise<{ kid: string; retired: string[] }> {
    const before = await this.model.find({ retiredAt: null }, { _id: 1 }).lean<KeyDoc[]>();
    const fresh = await this.insertNew(now);
    const retired = before.map((d) => d._id);
    await this.model.updateMany({ _id: { $in: retired } }, { $set: { retiredAt: now } });
    return { kid: fresh._id, retired };
  }

  /** Every key, public half only: the active one and all retired ones. */
  async publicSet(): Promise<PublicKeySet> {
    const docs = await this.model
      .find({}, { publicJwk: 1, createdAt: 1 })
      .sort({ createdAt: 1, _id: 1 })
      .lean<KeyDoc[]>();
    return {
      keys: docs.map((d) => ({ ...d.publicJwk, kid: d._id, alg: EVIDENCE_ALG, use: 'sig' })),
    };
  }

  private async oldestActive(): Promise<KeyDoc | null> {
    return this.model.findOne({ retiredAt: null }).sort({ createdAt: 1, _id: 1 }).lean<KeyDoc>();
  }

  private async create(now: number): Promise<KeyDoc> {
    await this.insertNew(now);
    const winner = (await this.oldestActive())!;
    await this.model.updateMany(
      { retiredAt: null, _id: { $ne: winner._id } },
      { $set: { retiredAt: now } },
    );
    return winner;
  }

  private async insertNew(now: number): Promise<KeyDoc> {
    const { publicKey, privateKey } = await generateKeyPair(EVIDENCE_ALG, {
      crv: 'Ed25519',
      extractable: true,
    });
    const doc: KeyDoc = {
      _id: `ev-${new Date(now).toISOString().slice(0, 10)}-${randomBytes(6).toString('hex')}`,
      publicJwk: await exportJWK(publicKey),
      privateJwk: await exportJWK(privateKey),
      createdAt: now,
      retiredAt: null,
    };
    await this.model.collection.insertOne(doc as never);
    return doc;
  }
}
