/** MongoDB I/O for users, API keys and the shared signing key. */
import { AppError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import { generateApiKey, hashApiKey } from './apikeys.js';
import type { ApiKeyDoc, UserDoc, UserModels } from './models.js';
import { newSigningKey, type StoredSigningKey } from './tokens.js';

const SIGNING_KEY_ID = 'jwt-signing-key';
const USER_SEQUENCE_ID = 'user-sequence';

export class UserStore {
  constructor(
    private readonly m: UserModels,
    private readonly clock: Clock,
  ) {}

  async ensureIndexes(): Promise<void> {
    await Promise.all([this.m.User.createIndexes(), this.m.ApiKey.createIndexes()]);
  }

  async createUser(name: string): Promise<UserDoc> {
    const seq = await this.m.Setting.findOneAndUpdate(
      { _id: USER_SEQUENCE_ID },
      { $inc: { value: 1 } },
      { upsert: true, returnDocument: 'after' },
    ).lean<{ value: number }>();
    const user: UserDoc = { _id: seq!.value, name, createdAt: this.clock.now() };
    await this.m.User.collection.insertOne(user as never);
    return user;
  }

  async listUsers(): Promise<UserDoc[]> {
    return this.m.User.find().sort({ _id: 1 }).lean<UserDoc[]>();
  }

  async requireUser(userId: number): Promise<UserDoc> {
    const user = await this.m.User.findById(userId).lean<UserDoc>();
    if (!user) throw AppError.notFound(`user ${userId}`);
    return user;
  }

  async createApiKey(userId: number): Promise<{ keyId: string; apiKey: string }> {
    await this.requireUser(userId);
    const key = generateApiKey();
    await this.m.ApiKey.collection.insertOne({
      _id: key.keyId,
      userId,
      hash: key.hash,
      createdAt: this.clock.now(),
      revokedAt: null,
    } as never);
    return { keyId: key.keyId, apiKey: key.apiKey };
  }

  async listKeys(userId?: number): Promise<ApiKeyDoc[]> {
    const filter = userId === undefined ? {} : { userId };
    return this.m.ApiKey.find(filter, { hash: 0 }).sort({ createdAt: 1 }).lean<ApiKeyDoc[]>();
  }

  async revokeKey(keyId: string): Promise<ApiKeyDoc> {
    const key = await this.m.ApiKey.findOneAndUpdate(
      { _id: keyId, revokedAt: null },
      { $set: { revokedAt: this.clock.now() } },
      { returnDocument: 'after' },
    ).lean<ApiKeyDoc>();
    if (key) return key;
    const existing = await this.m.ApiKey.findById(keyId).lean<ApiKeyDoc>();
    if (!existing) throw AppError.notFound(`api key ${keyId}`);
    return existing;
  }

  /** The active key matching an API key, or undefined. */
  async findActiveKey(apiKey: string): Promise<ApiKeyDoc | undefined> {
    const key = await this.m.ApiKey.findOne({
      hash: hashApiKey(apiKey),
      revokedAt: null,
    }).lean<ApiKeyDoc>();
    return key ?? undefined;
  }

  /** The cluster's signing key: created once by whichever node comes first. */
  async signingKey(): Promise<StoredSigningKey> {
    const candidate = await newSigningKey();
    const doc = await this.m.Setting.findOneAndUpdate(
      { _id: SIGNING_KEY_ID },
      { $setOnInsert: { ...candidate } },
      { upsert: true, returnDocument: 'after' },
    ).lean<StoredSigningKey>();
    return {
      alg: 'EdDSA',
      privateKeyPkcs8: doc!.privateKeyPkcs8,
      publicKeySpki: doc!.publicKeySpki,
    };
  }
}
