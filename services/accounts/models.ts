/**
 * One document per web-channel account (`_id` = UUID), in the `accounts`
 * collection. The storage state is kept only as `stateCipher` (cipher.ts);
 * `holder`/`heldUntil` make an account run one sub task at a time.
 */
import { Schema, type Connection, type Model } from 'mongoose';
import type { AccountState, HumanKind } from '../shared/contracts/accounts.js';

export interface AccountDoc {
  _id: string;
  platform: string;
  /** Unique per platform; how operators name the account. */
  label: string;
  /** A city-lookup code, or null: no region (direct, no proxy). */
  regionCode: string | null;
  /** The proxy port (`host:port`) the account always uses; null until its first claim. */
  proxyKey: string | null;
  state: AccountState;
  /** cooling: usable again from this time (epoch ms). */
  coolUntil: number | null;
  reason: string | null;
  /** needs_human: what a person must do (a verdict without a kind: null). */
  humanKind?: HumanKind | null;
  /** needs_human: the screenshot of what the site showed (services/shared/screenshots.ts). */
  screenshotId: string | null;
  /** AES-256-GCM of the storage-state JSON; null: never logged in. */
  stateCipher: string | null;
  /** `subTaskId token` of the sub task running on the account. */
  holder: string | null;
  heldUntil: number | null;
  lastUsedAt: number | null;
  /** Pacing: no prompt before this time. */
  nextUseAt: number;
  /** Times of the prompts still inside the quota window, newest first. */
  usage: number[];
  createdAt: number;
}

const accountSchema = new Schema<AccountDoc>(
  {
    _id: String,
    platform: { type: String, required: true },
    label: { type: String, required: true },
    regionCode: { type: String, default: null },
    proxyKey: { type: String, default: null },
    state: { type: String, required: true },
    coolUntil: { type: Number, default: null },
    reason: { type: String, default: null },
    humanKind: { type: String, default: null },
    screenshotId: { type: String, default: null },
    stateCipher: { type: String, default: null },
    holder: { type: String, default: null },
    heldUntil: { type: Number, default: null },
    lastUsedAt: { type: Number, default: null },
    nextUseAt: { type: Number, default: 0 },
    usage: [Number],
    createdAt: Number,
  },
  { versionKey: false, collection: 'accounts' },
);
accountSchema.index({ platform: 1, label: 1 }, { unique: true });
accountSchema.index({ platform: 1, state: 1 });
accountSchema.index({ proxyKey: 1 });

export function accountModel(connection: Connection): Model<AccountDoc> {
  return (
    (connection.models.Account as Model<AccountDoc>) ??
    connection.model<AccountDoc>('Account', accountSchema)
  );
}
