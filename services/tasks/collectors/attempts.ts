/** The web-channel attempts among settled reports, with their outcomes. Pure. */
import type { Settled } from '../../shared/contracts/events.js';
import type { SettleReport } from '../../shared/contracts/report.js';
import { classifyAttempt } from './outcome.js';
import type { AttemptOutcome } from './store.js';

/**
 * A report the ledger dropped (undefined: its lease had moved on, or it was
 * sent again) is not counted, so an attempt counts once.
 */
export function attemptOutcomes(
  reports: SettleReport[],
  settled: (Settled | undefined)[],
): AttemptOutcome[] {
  return reports.flatMap((r, i) => {
    const s = settled[i];
    if (!s || !r.web) return [];
    return [
      {
        platform: s.platform,
        regionCode: r.web.regionCode,
        accountId: r.accountId ?? null,
        outcome: classifyAttempt({
          answered: r.result !== undefined,
          failure: r.failure,
          accountVerdict: r.web.accountVerdict,
        }),
        ...(r.failure && { message: r.failure.message }),
        ...(r.result?.answerSource === 'dom' && { fromPage: true }),
      },
    ];
  });
}
