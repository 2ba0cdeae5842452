/** Users, their API keys (stored hashed) and small settings such as the signing key. */
import { Schema, type Connection, type Model } from 'mongoose';

/** `operator`: may read the cluster's state (nodes, ports, accounts, any task's callbacks). */
export const ROLES = ['user', 'operator'] as const;
export type Role = (typeof ROLES)[number];

export interface UserDoc {
  _id: number;
  name: string;
  /** Absent on users stored before roles: `user`. */
  role?: Role;
  createdAt: number;
  /** Callback address for tasks submitted without callbackUrl; null or absent: none. */
  callbackUrl?: string | null;
  /** `whsec_` secret that signs the user's callbacks; created on first use. */
  webhookSecret?: string | null;
}

export interface ApiKeyDoc {
  /** Public key id: the part of the key shown in listings. */
  _id: string;
  userId: number;
  hash: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface SettingDoc {
  _id: string;
  [field: string]: unknown;
}

const userSchema = new Schema<UserDoc>(
  {
    _id: Number,
    name: { type: String, required: true },
    role: { type: String, enum: ROLES, default: 'user' },
    createdAt: Number,
    callbackUrl: { type: String, default: null },
    webhookSecret: { type: String, default: null },
  },
  { versionKey: false, collection: 'users' },
);

const apiKeySchema = new Schema<ApiKeyDoc>(
  {
    _id: String,
    userId: { type: Number, required: true },
    hash: { type: String, required: true },
    createdAt: Number,
    revokedAt: { type: Number, default: null },
  },
  { versionKey: false, collection: 'apikeys' },
);
apiKeySchema.index({ hash: 1 }, { unique: true });
apiKeySchema.index({ userId: 1 });

const settingSchema = new Schema<SettingDoc>(
  { _id: String },
  { versionKey: false, strict: false, collection: 'settings' },
);

export interface UserModels {
  User: Model<UserDoc>;
  ApiKey: Model<ApiKeyDoc>;
  Setting: Model<SettingDoc>;
}

export function userModels(connection: Connection): UserModels {
  const get = <T>(name: string, schema: Schema<T>) =>
    (connection.models[name] as Model<T>) ?? connection.model<T>(name, schema);
  return {
    User: get('User', userSchema),
    ApiKey: get('ApiKey', apiKeySchema),
    Setting: get('Setting', settingSchema),
  };
}
