/**
 * Collector health: every web-channel attempt the ledger settled is written
 * as it is reported (an attempt record and its running total), and read back
 * per platform × region × account. Everything is in MongoDB, so it is the
 * same on every tasks node and survives restarts.
 */
import type { Clock } from '../../shared/clock.js';
import type { WebOutcomeCount } from '../../shared/contracts/figures.js';
import type { CollectorHealth, CollectorsData } from '../../shared/contracts/http.js';
import { WEB_OUTCOMES, type WebOutcome } from '../../shared/contracts/web-outcomes.js';
import type { CollectorsFilter } from '../../shared/requests/collectors-query.js';
import type { CollectorModels, WebTotalsDoc } from './models.js';

/** The window an operator watches: a site drifting since it began stands out. */
export const RECENT_MINUTES = 60;
/** The failure messages a row lists from its window. */
const SIGNALS_PER_ROW = 5;
/** Messages are the drivers' own; a runaway one is cut here. */
const SIGNAL_CHARS = 300;

export interface AttemptOutcome {
  platform: string;
  regionCode: string | null;
  accountId: string | null;
  outcome: WebOutcome;
  /** The failure's message; absent for an answer. */
  message?: string;
  /** An answer taken from the rendered page: the stream disagreed with it (stream drift). */
  fromPage?: boolean;
}

const key = (a: Pick<AttemptOutcome, 'platform' | 'regionCode' | 'accountId'>) =>
  JSON.stringify([a.platform, a.regionCode, a.accountId]);

const noOutcomes = (): Record<WebOutcome, number> =>
  Object.fromEntries(WEB_OUTCOMES.map((o) => [o, 0])) as Record<WebOutcome, number>;

export class CollectorStore {
  constructor(
    private readonly m: CollectorModels,
    private readonly clock: Clock,
  ) {}

  async ensureIndexes(): Promise<void> {
    await this.m.WebAttempt.createIndexes();
  }

  async record(attempts: AttemptOutcome[]): Promise<void> {
    if (attempts.length === 0) return;
    const now = this.clock.now();
    await Promise.all([
      this.m.WebAttempt.collection.insertMany(
        attempts.map((a) => ({
          platform: a.platform,
          regionCode: a.regionCode,
          accountId: a.accountId,
          outcome: a.outcome,
          signal: a.message?.slice(0, SIGNAL_CHARS) ?? null,
          at: new Date(now),
        })),
        { ordered: false },
      ),
      this.m.WebTotals.collection.bulkWrite(
        attempts.map((a) => ({
          updateOne: {
            filter: { _id: key(a) as never },
            update: {
              $setOnInsert: {
                platform: a.platform,
                regionCode: a.regionCode,
                accountId: a.accountId,
              },
              $inc: {
                tried: 1,
                [`outcomes.${a.outcome}`]: 1,
                ...(a.fromPage && { answeredFromPage: 1 }),
              },
              $max: { lastAttemptAt: now, ...(a.outcome === 'answered' && { lastSuccessAt: now }) },
              ...(a.outcome !== 'answered' && {
                $set: {
                  lastFailure: {
                    outcome: a.outcome,
                    message: a.message?.slice(0, SIGNAL_CHARS) ?? '',
                    at: now,
                  },
                },
              }),
            },
            upsert: true,
          },
        })),
        { ordered: false },
      ),
    ]);
  }

  /** Every platform × region × account the filter selects, drifting ones first. */
  async health(filter: CollectorsFilter): Promise<CollectorsData> {
    const now = this.clock.now();
    const match = {
      ...(filter.platform !== undefined && { platform: filter.platform }),
      ...(filter.regionCode !== undefined && { regionCode: filter.regionCode }),
    };
    const [totals, recent] = await Promise.all([
      this.m.WebTotals.find(match).lean<WebTotalsDoc[]>(),
      this.m.WebAttempt.collection
        .aggregate<{
          _id: { platform: string; regionCode: string | null; accountId: string | null };
          outcome: WebOutcome;
          signal: string | null;
          count: number;
          lastAt: Date;
        }>([
          { $match: { at: { $gte: new Date(now - RECENT_MINUTES * 60_000) }, ...match } },
          {
            $group: {
              _id: {
                platform: '$platform',
                regionCode: '$regionCode',
                accountId: '$accountId',
                outcome: '$outcome',
                signal: '$signal',
              },
              count: { $sum: 1 },
              lastAt: { $max: '$at' },
            },
          },
          {
            $project: {
              _id: {
                platform: '$_id.platform',
                regionCode: '$_id.regionCode',
                accountId: '$_id.accountId',
              },
              outcome: '$_id.outcome',
              signal: '$_id.signal',
              count: 1,
              lastAt: 1,
            },
          },
        ])
        .toArray(),
    ]);
    const windows = new Map<string, typeof recent>();
    for (const r of recent) windows.set(key(r._id), [...(windows.get(key(r._id)) ?? []), r]);
    const rows = totals.map((t): CollectorHealth => {
      const window = windows.get(key(t)) ?? [];
      const recentOutcomes = noOutcomes();
      for (const r of window) recentOutcomes[r.outcome] += r.count;
      const recentTried = window.reduce((n, r) => n + r.count, 0);
      return {
        platform: t.platform,
        regionCode: t.regionCode,
        accountId: t.accountId,
        tried: t.tried,
        answered: t.outcomes.answered ?? 0,
        answeredFromPage: t.answeredFromPage ?? 0,
        outcomes: { ...noOutcomes(), ...t.outcomes },
        lastAttemptAt: t.lastAttemptAt,
        lastSuccessAt: t.lastSuccessAt ?? null,
        lastFailure: t.lastFailure ?? null,
        recent: {
          tried: recentTried,
          outcomes: recentOutcomes,
          signals: window
            .filter((r) => r.outcome !== 'answered')
            .sort((a, b) => b.count - a.count || b.lastAt.getTime() - a.lastAt.getTime())
            .slice(0, SIGNALS_PER_ROW)
            .map((r) => ({
              outcome: r.outcome,
              signal: r.signal ?? '',
              count: r.count,
              lastAt: r.lastAt.getTime(),
            })),
        },
        drifting: recentOutcomes.drift > 0 && recentOutcomes.answered === 0,
      };
    });
    return {
      generatedAt: now,
      recentMinutes: RECENT_MINUTES,
      collectors: rows.sort(
        (a, b) =>
          Number(b.drifting) - Number(a.drifting) ||
          a.platform.localeCompare(b.platform) ||
          (a.regionCode ?? '').localeCompare(b.regionCode ?? '') ||
          (a.accountId ?? '').localeCompare(b.accountId ?? ''),
      ),
    };
  }

  /** The running totals summed over accounts: `aimon_web_outcomes_total`. */
  async outcomeCounts(): Promise<WebOutcomeCount[]> {
    const totals = await this.m.WebTotals.find(
      {},
      { platform: 1, regionCode: 1, outcomes: 1 },
    ).lean<Pick<WebTotalsDoc, 'platform' | 'regionCode' | 'outcomes'>[]>();
    const sums = new Map<string, WebOutcomeCount>();
    for (const t of totals) {
      const region = t.regionCode ?? 'any';
      for (const outcome of WEB_OUTCOMES) {
        const n = t.outcomes[outcome];
        if (!n) continue;
        const k = JSON.stringify([t.platform, region, outcome]);
        const sum = sums.get(k) ?? { platform: t.platform, region, outcome, count: 0 };
        sum.count += n;
        sums.set(k, sum);
      }
    }
    return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, s]) => s);
  }
}
