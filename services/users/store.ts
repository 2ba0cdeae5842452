/** MongoDB I/O for users, API keys, the shared signing key and callback settings. */
import { AppError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import { newWebhookSecret } from '../shared/webhooks/sign.js';
import { generateApiKey, hashApiKey } from './apikeys.js';
import type { ApiKeyDoc, Role, UserDoc, UserModels } from './models.js';
import { newSigningKey, type StoredSigningKey } from '../shared/tokens.js';

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

  async setRole(userId: number, role: Role): Promise<UserDoc> {
    await this.requireUser(userId);
    await this.m.User.updateOne({ _id: userId }, { $set: { role } });
    return this.requireUser(userId);
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

  /** The user's default callback address and signing secret (created on first use). */
  async callbackSettings(userId: number): Promise<{ callbackUrl: string | null; secret: string }> {
    const user = await this.requireUser(userId);
    return { callbackUrl: user.callbackUrl ?? null, secret: await this.webhookSecret(userId) };
  }

  async setDefaultCallback(userId: number, callbackUrl: string | null) {
    const res = await this.m.User.updateOne({ _id: userId }, { $set: { callbackUrl } });
    if (res.matchedCount === 0) throw AppError.notFound(`user ${userId}`);
    return this.callbackSettings(userId);
  }

  /** Default callback addresses of these users (only those that have one). */
  async defaultCallbacks(userIds: number[]): Promise<Map<number, string>> {
    const users = await this.m.User.find(
      { _id: { $in: userIds }, callbackUrl: { $ne: null } },
      { callbackUrl: 1 },
    ).lean<UserDoc[]>();
    return new Map(users.filter((u) => u.callbackUrl).map((u) => [u._id, u.callbackUrl!]));
  }

  /** The secret that signs the user's callbacks; whichever caller comes first creates it. */
  async webhookSecret(userId: number): Promise<string> {
    const doc = await this.m.User.findOneAndUpdate(
      { _id: userId, webhookSecret: null },
      { $set: { webhookSecret: newWebhookSecret() } },
      { returnDocument: 'after' },
    ).lean<UserDoc>();
    const secret = doc?.webhookSecret ?? (await this.requireUser(userId)).webhookSecret;
    if (!secret) throw AppError.notFound(`user ${userId}`);
    return secret;
  }

  /** A new secret; callbacks sent from now on are signed with it. */
  async rotateWebhookSecret(userId: number) {
    const res = await this.m.User.updateOne(
      { _id: userId },
      { $set: { webhookSecret: newWebhookSecret() } },
    );
    if (res.matchedCount === 0) throw AppError.notFound(`user ${userId}`);
    return this.callbackSettings(userId);
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
