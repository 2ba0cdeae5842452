import t from 'tap';
import { dueAt, nextDue, scheduleProblems } from '../../../services/monitors/schedule.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

t.test('every N minutes: slots counted from the epoch, strictly after', async (t) => {
  const every = { everyMinutes: 15 };
  t.equal(iso(nextDue(every, at('2026-05-01T10:07:00Z'))), '2026-05-01T10:15:00.000Z');
  t.equal(iso(nextDue(every, at('2026-05-01T10:15:00Z'))), '2026-05-01T10:30:00.000Z');
});

t.test('a daily cron keeps its local hour across the autumn DST change', async (t) => {
  const ny = { cron: '0 9 * * *', timezone: 'America/New_York' };
  // New York leaves daylight time on 2026-11-01: 09:00 is 13:00Z before, 14:00Z after.
  t.equal(iso(nextDue(ny, at('2026-10-31T12:00:00Z'))), '2026-10-31T13:00:00.000Z');
  t.equal(iso(nextDue(ny, at('2026-10-31T13:00:00Z'))), '2026-11-01T14:00:00.000Z');
  const shanghai = { cron: '0 9 * * *', timezone: 'Asia/Shanghai' };
  t.equal(iso(nextDue(shanghai, at('2026-10-31T12:00:00Z'))), '2026-11-01T01:00:00.000Z');
});

t.test('a local time that DST skips or repeats runs once that day', async (t) => {
  const berlin = { cron: '30 2 * * *', timezone: 'Europe/Berlin' };
  // 2026-03-29 02:00 CET jumps to 03:00 CEST: 02:30 does not exist, the run is at 03:30 CEST.
  t.equal(iso(nextDue(berlin, at('2026-03-28T12:00:00Z'))), '2026-03-29T01:30:00.000Z');
  t.equal(iso(nextDue(berlin, at('2026-03-29T01:30:00Z'))), '2026-03-30T00:30:00.000Z');
  // 2026-10-25 03:00 CEST falls back to 02:00 CET: 02:30 happens twice, the run once.
  t.equal(iso(nextDue(berlin, at('2026-10-24T12:00:00Z'))), '2026-10-25T01:30:00.000Z');
  t.equal(iso(nextDue(berlin, at('2026-10-25T01:30:00Z'))), '2026-10-26T01:30:00.000Z');
});

t.test('not yet due, due, and once after downtime', async (t) => {
  const hourly = { cron: '0 * * * *', timezone: 'UTC' };
  const slot = at('2026-05-01T10:00:00Z');
  t.equal(dueAt(hourly, slot, slot - 1), null);
  t.strictSame(dueAt(hourly, slot, slot), { slot, next: at('2026-05-01T11:00:00Z') });
  // Down from 09:59 to 15:20: six slots passed, one run starts, and the next is 16:00.
  t.strictSame(dueAt(hourly, slot, at('2026-05-01T15:20:00Z')), {
    slot,
    next: at('2026-05-01T16:00:00Z'),
  });
});

t.test('problems name their field', async (t) => {
  t.strictSame(scheduleProblems({ cron: '*/5 * * * *', timezone: 'Europe/Berlin' }), []);
  t.strictSame(scheduleProblems({ everyMinutes: 60 }), []);
  const bad = scheduleProblems({ cron: '61 * * * *', timezone: 'Mars/Olympus' });
  t.strictSame(
    bad.map((p) => p.field),
    ['schedule.timezone', 'schedule.cron'],
  );
  t.match(bad[1]!.message, /minute/);
  t.strictSame(
    scheduleProblems({ cron: '0 0 30 2 *', timezone: 'UTC' }).map((p) => p.message),
    ['never comes due'],
  );
});
