/**
 * The time zones a monitor's schedule may name: one list for the OpenAPI
 * document's enum and the service's check. Every listed zone is accepted by
 * the check and read by croner; a name that is not listed is refused, one
 * Intl would read under another spelling with that spelling named.
 */
import t from 'tap';
import { scheduleProblems, nextDue } from '../../../services/monitors/schedule.js';
import { timeZoneProblem, TIME_ZONES } from '../../../services/shared/requests/time-zones.js';
import { buildOpenApi } from '../../../services/api/openapi.js';

interface Cron {
  properties?: { timezone?: { enum?: string[] } };
}

t.test(
  'the list: the runtime ICU zones, UTC and the current names, sorted, each once',
  async (t) => {
    t.ok(TIME_ZONES.length > 300, `${TIME_ZONES.length} zones`);
    for (const zone of ['UTC', 'Asia/Shanghai', 'Europe/Berlin', 'America/New_York'])
      t.ok(TIME_ZONES.includes(zone), zone);
    // IANA's current names of zones ICU still spells the old way: both spellings are listed.
    for (const zone of ['Asia/Kolkata', 'Asia/Calcutta', 'Europe/Kyiv', 'Europe/Kiev'])
      t.ok(TIME_ZONES.includes(zone), zone);
    t.same([...TIME_ZONES].sort(), TIME_ZONES, 'sorted');
    t.equal(new Set(TIME_ZONES).size, TIME_ZONES.length, 'no repeats');
  },
);

t.test('every listed zone passes the schedule check and croner finds its next 09:00', async (t) => {
  const refused = TIME_ZONES.filter(
    (timezone) =>
      scheduleProblems({ cron: '0 9 * * *', timezone }).length > 0 ||
      !Number.isFinite(nextDue({ cron: '0 9 * * *', timezone }, Date.now())),
  );
  t.same(refused, [], 'none refused');
});

t.test('a name not listed is refused; another spelling of a listed zone names it', async (t) => {
  for (const zone of ['000', 'Mars/Olympus', '', '+08:00', 'Asia/Shanghai '])
    t.equal(
      timeZoneProblem(zone),
      'must be an IANA time zone (e.g. Asia/Shanghai, Europe/Berlin, UTC)',
      zone,
    );
  for (const zone of ['utc', 'Etc/UTC', 'asia/shanghai']) {
    const problem = timeZoneProblem(zone);
    t.match(
      problem,
      /^must be a listed IANA time zone: this one is listed as (UTC|Asia\/Shanghai)$/,
      zone,
    );
    t.ok(TIME_ZONES.includes(problem!.split(' ').at(-1)!), `${zone}: the named spelling is listed`);
  }
  t.same(
    scheduleProblems({ cron: '0 9 * * *', timezone: '000' }).map((p) => p.field),
    ['schedule.timezone'],
  );
});

t.test("the OpenAPI document's monitor schedule lists exactly these zones", async (t) => {
  const doc = buildOpenApi('0.1.0', '/') as {
    components: { schemas: Record<string, { properties: Record<string, { anyOf: Cron[] }> }> };
  };
  const cron = doc.components.schemas.MonitorInput!.properties.schedule!.anyOf.find(
    (s) => s.properties?.timezone,
  );
  t.same(cron?.properties?.timezone?.enum, TIME_ZONES);
});
