import t from 'tap';
import { dueAt, nextDue, scheduleProblems } from '../../../services/monitors/schedule.js';
import { isDigestDue, latestDigestDay } from '../../../services/monitors/digest/due.js';

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

t.test('the digest: the latest 09:00 in the schedule’s zone, UTC for everyMinutes', async (t) => {
  const shanghai = { cron: '*/30 * * * *', timezone: 'Asia/Shanghai' };
  t.same(latestDigestDay(shanghai, at('2026-05-01T00:59:59.999Z')), {
    slot: at('2026-04-30T01:00:00Z'),
    day: '2026-04-30',
    timezone: 'Asia/Shanghai',
  });
  t.equal(latestDigestDay(shanghai, at('2026-05-01T01:00:00Z')).day, '2026-05-01', 'due at 09:00');
  t.same(latestDigestDay({ everyMinutes: 60 }, at('2026-05-01T08:59:00Z')), {
    slot: at('2026-04-30T09:00:00Z'),
    day: '2026-04-30',
    timezone: 'UTC',
  });
  t.equal(
    iso(latestDigestDay({ everyMinutes: 5 }, at('2026-05-01T09:00:01Z')).slot),
    '2026-05-01T09:00:00.000Z',
  );
  // New York leaves daylight time on 2026-11-01: 09:00 local is 13:00Z before and 14:00Z after.
  const ny = { cron: '0 * * * *', timezone: 'America/New_York' };
  t.equal(iso(latestDigestDay(ny, at('2026-11-01T13:30:00Z')).slot), '2026-10-31T13:00:00.000Z');
  t.same(latestDigestDay(ny, at('2026-11-01T14:00:00Z')), {
    slot: at('2026-11-01T14:00:00Z'),
    day: '2026-11-01',
    timezone: 'America/New_York',
  });
  // A local date that differs from the UTC date: Auckland's 09:00 is 21:00Z the day before.
  const auckland = { cron: '0 0 * * *', timezone: 'Pacific/Auckland' };
  t.same(latestDigestDay(auckland, at('2026-05-01T22:00:00Z')), {
    slot: at('2026-05-01T21:00:00Z'),
    day: '2026-05-02',
    timezone: 'Pacific/Auckland',
  });
});

t.test(
  'the digest goes out once per day, and once for the latest day after downtime',
  async (t) => {
    const utc = { everyMinutes: 60 };
    const created = at('2026-05-01T10:00:00Z');
    const dueOn = (now: string, lastSent?: number) =>
      isDigestDue(latestDigestDay(utc, at(now)), created, lastSent);
    t.notOk(dueOn('2026-05-01T23:00:00Z'), 'not for a day whose 09:00 came before the monitor');
    t.ok(dueOn('2026-05-02T09:00:00Z'), 'the first 09:00 after its creation');
    const sent = latestDigestDay(utc, at('2026-05-02T09:00:00Z')).slot;
    t.notOk(dueOn('2026-05-02T09:01:00Z', sent), 'not again that day');
    t.notOk(dueOn('2026-05-03T08:59:59Z', sent), 'nor before the next 09:00');
    t.ok(dueOn('2026-05-03T09:00:00Z', sent), 'the next day');
    // Down from the 3rd to the 6th: on recovery only the latest day is due, and then none.
    const recovered = latestDigestDay(utc, at('2026-05-06T15:00:00Z'));
    t.equal(recovered.day, '2026-05-06');
    t.ok(isDigestDue(recovered, created, sent));
    t.notOk(dueOn('2026-05-06T16:00:00Z', recovered.slot), 'the missed days are not sent later');
  },
);
