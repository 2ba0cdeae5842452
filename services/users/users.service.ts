/**
 * The `users` service: users, API keys and access tokens. Operators reach the
 * management actions through the admin CLI or the REPL; clients only ever
 * reach `issueToken` (through the api).
 */
import type { Context, ServiceSchema } from 'moleculer';
import type { Config } from '../shared/config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { acquireConnection, releaseConnection } from '../shared/mongo.js';
import { checkDefaultCallback } from '../shared/webhooks/address.js';
import { AddressPolicy } from '../shared/webhooks/ssrf.js';
import { looksLikeApiKey } from './apikeys.js';
import { ROLES, userModels, type Role, type UserDoc } from './models.js';
import { UserStore } from './store.js';
import type {
  DefaultCallbacksAnswer,
  DefaultCallbacksRequest,
  WebhookSecretAnswer,
  WebhookSecretRequest,
} from '../shared/contracts/callbacks.js';
import { TokenSigner } from '../shared/tokens.js';

const profileOf = (u: UserDoc) => ({ userId: u._id, name: u.name, role: u.role ?? 'user' });

const keyView = (k: {
  _id: string;
  userId: number;
  createdAt: number;
  revokedAt: number | null;
}) => ({
  keyId: k._id,
  userId: k.userId,
  createdAt: k.createdAt,
  revokedAt: k.revokedAt ?? null,
});

export function usersService(config: Config, clock: Clock = systemClock): ServiceSchema {
  let store: UserStore;
  let signer: TokenSigner;
  const policy = new AddressPolicy(config.callbacks.allowCidrs);
  const userIdParam = { type: 'number', integer: true, positive: true, convert: true } as const;
  const tokenSettings = {
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    ttlSeconds: config.tokenTtlSeconds,
  };

  return {
    name: 'users',

    actions: {
      createUser: {
        params: { name: { type: 'string', min: 1, max: 200, trim: true } },
        async handler(ctx: Context<{ name: string }>) {
          const user = await store.createUser(ctx.params.name);
          return { userId: user._id, name: user.name, createdAt: user.createdAt };
        },
      },

      listUsers: {
        async handler() {
          const users = await store.listUsers();
          return users.map((u) => ({ ...profileOf(u), createdAt: u.createdAt }));
        },
      },

      /** Who a signed-in user is (`GET …/me`) and what the api's operator routes check. */
      profile: {
        params: { userId: userIdParam },
        async handler(ctx: Context<{ userId: number }>) {
          return profileOf(await store.requireUser(ctx.params.userId));
        },
      },

      setRole: {
        params: { userId: userIdParam, role: { type: 'enum', values: [...ROLES] } },
        async handler(ctx: Context<{ userId: number; role: Role }>) {
          return profileOf(await store.setRole(ctx.params.userId, ctx.params.role));
        },
      },

      createApiKey: {
        params: { userId: { type: 'number', integer: true, positive: true, convert: true } },
        async handler(ctx: Context<{ userId: number }>) {
          const key = await store.createApiKey(ctx.params.userId);
          return { userId: ctx.params.userId, ...key };
        },
      },

      listKeys: {
        params: {
          userId: { type: 'number', integer: true, positive: true, convert: true, optional: true },
        },
        async handler(ctx: Context<{ userId?: number }>) {
          return (await store.listKeys(ctx.params.userId)).map(keyView);
        },
      },

      revokeKey: {
        params: { keyId: { type: 'string', min: 1 } },
        async handler(ctx: Context<{ keyId: string }>) {
          return keyView(await store.revokeKey(ctx.params.keyId));
        },
      },

      issueToken: {
        params: { apiKey: { type: 'any', optional: true, nullable: true } },
        async handler(ctx: Context<{ apiKey: unknown }>) {
          const { apiKey } = ctx.params;
          if (apiKey === undefined || apiKey === null || apiKey === '') {
            throw AppError.invalid([{ field: 'apiKey', message: 'is required' }]);
          }
          if (!looksLikeApiKey(apiKey)) throw AppError.unauthorized('invalid API key');
          const key = await store.findActiveKey(apiKey);
          if (!key) throw AppError.unauthorized('invalid or revoked API key');
          const accessToken = await signer.issue(
            { userId: key.userId, keyId: key._id },
            tokenSettings,
            clock.now(),
          );
          return { accessToken, tokenType: 'Bearer', expiresIn: config.tokenTtlSeconds };
        },
      },

      /** The default callback address and the signing secret, as the user sees them. */
      callbackSettings: {
        params: { userId: userIdParam },
        async handler(ctx: Context<{ userId: number }>) {
          return store.callbackSettings(ctx.params.userId);
        },
      },

      /** Sets (or, with null, clears) the default callback address; `body` as the API got it. */
      setCallback: {
        params: { userId: userIdParam, body: { type: 'any', optional: true, nullable: true } },
        async handler(ctx: Context<{ userId: number; body: unknown }>) {
          const url = await checkDefaultCallback(ctx.params.body, policy);
          return store.setDefaultCallback(ctx.params.userId, url);
        },
      },

      rotateCallbackSecret: {
        params: { userId: userIdParam },
        async handler(ctx: Context<{ userId: number }>) {
          return store.rotateWebhookSecret(ctx.params.userId);
        },
      },

      /** The default callback addresses of the users among these that have one. */
      defaultCallbacks: {
        params: { userIds: { type: 'array', items: userIdParam } },
        async handler(ctx: Context<DefaultCallbacksRequest>): Promise<DefaultCallbacksAnswer> {
          return [...(await store.defaultCallbacks(ctx.params.userIds))];
        },
      },

      /** The secret that signs a user's callbacks, for the callbacks service only. */
      webhookSecret: {
        params: { userId: userIdParam },
        async handler(ctx: Context<WebhookSecretRequest>): Promise<WebhookSecretAnswer> {
          return { secret: await store.webhookSecret(ctx.params.userId) };
        },
      },

      /** What api nodes need to verify tokens locally; never the private key. */
      verificationKey: {
        handler() {
          return signer.verification;
        },
      },
    },

    async started() {
      const connection = await acquireConnection(config.mongoUrl, config.mongoDb);
      store = new UserStore(userModels(connection), clock);
      await store.ensureIndexes();
      signer = config.jwtSecret
        ? await TokenSigner.fromSecret(config.jwtSecret)
        : await TokenSigner.fromStored(await store.signingKey());
    },

    async stopped() {
      await releaseConnection(config.mongoUrl, config.mongoDb);
    },
  };
}
