/**
 * When a monitor's daily digest is due, pure, against the time the caller's
 * clock gives: 09:00 local in the zone of the monitor's schedule (UTC for
 * `{everyMinutes}`), read by croner through the schedule module, so it stays
 * 09:00 local across a DST change. Only the latest such time counts: after
 * downtime that spanned several days, one digest goes out, for the last day.
 */
import type { MonitorSchedule } from '../../shared/requests/monitor.js';
import { nextDue } from '../schedule.js';

const DIGEST_CRON = '0 9 * * *';
/** Longer than any local day (23 to 25 h across a DST change): a 09:00 always falls in it. */
const LONGER_THAN_A_DAY_MS = 26 * 3600_000;

export interface DigestDay {
  /** The digest's time: 09:00 local (ms since the epoch). */
  slot: number;
  /** Its local date, YYYY-MM-DD: the digest's name in its delivery. */
  day: string;
  timezone: string;
}

export function digestZone(schedule: MonitorSchedule): string {
  return 'everyMinutes' in schedule ? 'UTC' : schedule.timezone;
}

/** The latest 09:00 in the monitor's zone at or before `now`. */
export function latestDigestDay(schedule: MonitorSchedule, now: number): DigestDay {
  const timezone = digestZone(schedule);
  const daily = { cron: DIGEST_CRON, timezone };
  let slot = nextDue(daily, now - LONGER_THAN_A_DAY_MS);
  for (let next = nextDue(daily, slot); next <= now; next = nextDue(daily, next)) slot = next;
  return { slot, day: localDate(slot, timezone), timezone };
}

/**
 * Whether that day's digest is still to send: its time came after the monitor
 * was created (a monitor created at 10:00 gets its first digest the next
 * morning), and no digest went out for it or a later day.
 */
export function isDigestDue(
  day: DigestDay,
  createdAt: number,
  lastSentSlot: number | undefined,
): boolean {
  return day.slot >= createdAt && (lastSentSlot === undefined || lastSentSlot < day.slot);
}

function localDate(at: number, timezone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
