/**
 * What collector health is read from: one small record per web-channel
 * attempt (kept RECENT_KEPT_S, for the recent window) and one running total
 * per platform × region × account (kept for good: a handful of documents per
 * account, and monotonic, as Prometheus counters must be).
 */
import { Schema, type Connection, type Model } from 'mongoose';
import type { WebOutcome } from '../../shared/contracts/web-outcomes.js';

/** How long an attempt record is kept: long enough for the recent window and a look back. */
export const RECENT_KEPT_S = 24 * 60 * 60;

export interface WebAttemptDoc {
  platform: string;
  /** The sub task's region; null: any. */
  regionCode: string | null;
  /** The account that ran it; null: none (the sandbox's web channel without accounts). */
  accountId: string | null;
  outcome: WebOutcome;
  /** The failure's message (the first cause the driver named); null for an answer. */
  signal: string | null;
  /** A Date, so MongoDB's TTL monitor removes it. */
  at: Date;
}

export interface WebTotalsDoc {
  /** platform, region and account joined (totalsKey). */
  _id: string;
  platform: string;
  regionCode: string | null;
  accountId: string | null;
  tried: number;
  /** Per outcome name; absent: none yet. */
  outcomes: Partial<Record<WebOutcome, number>>;
  /** Answers taken from the rendered page because the stream disagreed with it; absent: none. */
  answeredFromPage?: number;
  lastAttemptAt: number;
  lastSuccessAt: number | null;
  lastFailure: { outcome: WebOutcome; message: string; at: number } | null;
}

const attemptSchema = new Schema<WebAttemptDoc>(
  {
    platform: String,
    regionCode: { type: String, default: null },
    accountId: { type: String, default: null },
    outcome: String,
    signal: { type: String, default: null },
    at: Date,
  },
  { versionKey: false, collection: 'web_attempts' },
);
// The recent window reads by time; the same index expires the records.
attemptSchema.index({ at: 1 }, { expireAfterSeconds: RECENT_KEPT_S });

const totalsSchema = new Schema<WebTotalsDoc>(
  {
    _id: String,
    platform: String,
    regionCode: { type: String, default: null },
    accountId: { type: String, default: null },
    tried: Number,
    outcomes: Schema.Types.Mixed,
    answeredFromPage: Number,
    lastAttemptAt: Number,
    lastSuccessAt: { type: Number, default: null },
    lastFailure: { type: Schema.Types.Mixed, default: null },
  },
  { versionKey: false, collection: 'web_outcome_totals' },
);

export interface CollectorModels {
  WebAttempt: Model<WebAttemptDoc>;
  WebTotals: Model<WebTotalsDoc>;
}

export function collectorModels(connection: Connection): CollectorModels {
  return {
    WebAttempt:
      (connection.models.WebAttempt as Model<WebAttemptDoc>) ??
      connection.model<WebAttemptDoc>('WebAttempt', attemptSchema),
    WebTotals:
      (connection.models.WebTotals as Model<WebTotalsDoc>) ??
      connection.model<WebTotalsDoc>('WebTotals', totalsSchema),
  };
}
