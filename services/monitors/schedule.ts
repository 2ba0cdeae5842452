/**
 * When a monitor is due, pure, against times the caller's clock gives. A
 * schedule is a cron expression in an IANA time zone (croner reads it, so a
 * daily 09:00 stays 09:00 local across a DST change; a local time that a
 * spring-forward skips runs an hour later that day, and one that a fall-back
 * repeats runs once), or every N minutes on slots counted from the Unix epoch,
 * so every node computes the same slots without shared state.
 */
import { Cron } from 'croner';
import type { FieldProblem } from '../shared/errors.js';
import type { MonitorSchedule } from '../shared/requests/monitor.js';
import { timeZoneProblem } from '../shared/requests/time-zones.js';

export type Schedule = MonitorSchedule;

function cronOf(schedule: { cron: string; timezone: string }): Cron {
  return new Cron(schedule.cron, { timezone: schedule.timezone, paused: true });
}

/** What is wrong with a schedule, by field under `schedule`; empty when it is usable. */
export function scheduleProblems(schedule: Schedule): FieldProblem[] {
  if ('everyMinutes' in schedule) return [];
  const problems: FieldProblem[] = [];
  const zone = timeZoneProblem(schedule.timezone);
  if (zone) problems.push({ field: 'schedule.timezone', message: zone });
  try {
    // A pattern that parses may still never match (30 February).
    const next = new Cron(schedule.cron, { paused: true }).nextRun();
    if (next === null) problems.push({ field: 'schedule.cron', message: 'never comes due' });
  } catch (err) {
    problems.push({ field: 'schedule.cron', message: (err as Error).message });
  }
  return problems;
}

/** The first due time strictly after `after` (ms since the epoch). */
export function nextDue(schedule: Schedule, after: number): number {
  if ('everyMinutes' in schedule) {
    const period = schedule.everyMinutes * 60_000;
    return (Math.floor(after / period) + 1) * period;
  }
  const next = cronOf(schedule).nextRun(new Date(after));
  // scheduleProblems refused a pattern that never comes due; a stored one keeps its last slot.
  return next === null ? Number.POSITIVE_INFINITY : next.getTime();
}

export interface Due {
  /** The slot the run is for: the earliest one not yet run. */
  slot: number;
  /** The next slot after now: missed slots in between are not run again. */
  next: number;
}

/**
 * Whether a monitor whose next slot is `nextDueAt` runs at `now`. After
 * downtime that spanned many slots it runs once, for the first missed slot,
 * and its next slot is the first one after now.
 */
export function dueAt(schedule: Schedule, nextDueAt: number, now: number): Due | null {
  if (now < nextDueAt) return null;
  return { slot: nextDueAt, next: nextDue(schedule, now) };
}
