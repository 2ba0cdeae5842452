import t from 'tap';
import { checkMonitorInput } from '../../../services/shared/requests/monitor.js';

const valid = {
  name: 'CRM daily',
  prompts: ['best CRM', { text: 'CRM for a bakery', tags: ['smb'] }],
  platforms: [
    { platform: 'sandbox', mode: 'search' },
    { platform: 'SANDBOX', mode: 'search' },
  ],
  monitorKeywords: 'Acme|acme.com, Globex',
  schedule: { everyMinutes: 60 },
};

t.test('a valid monitor, normalised', async (t) => {
  const checked = checkMonitorInput(valid);
  t.ok(checked.ok);
  if (!checked.ok) return;
  t.strictSame(checked.value.prompts, [
    { text: 'best CRM', tags: [] },
    { text: 'CRM for a bakery', tags: ['smb'] },
  ]);
  t.equal(checked.value.platforms.length, 1, 'platforms deduplicated as in a batch');
  t.strictSame(checked.value.regionCodes, []);
  t.equal(checked.value.samples, 1);
  t.equal(checked.value.enabled, true);
  t.equal(checked.value.digest, false, 'no daily digest unless asked for');
  t.strictSame(checked.value.keywords, ['Acme|acme.com', 'Globex']);
});

t.test('every problem at once', async (t) => {
  const checked = checkMonitorInput({
    prompts: ['  '],
    platforms: [{ platform: 'sandbox', mode: 'nonsense' }],
    monitorKeywords: ' , ',
    regionCodes: ['310000', '310000'],
    samples: 21,
    schedule: { everyMinutes: 0 },
    digest: 'yes',
  });
  t.notOk(checked.ok);
  if (checked.ok) return;
  t.strictSame([...new Set(checked.errors.map((e) => e.field))].sort(), [
    'digest',
    'monitorKeywords',
    'name',
    'platforms[0].mode',
    'prompts[0]',
    'regionCodes',
    'samples',
    'schedule.everyMinutes',
  ]);
  t.notOk(checkMonitorInput([]).ok, 'not an object');
});

t.test('samples: adaptive bounds, and the run size ceiling', async (t) => {
  t.ok(checkMonitorInput({ ...valid, samples: { min: 2, max: 8, targetWidth: 0.3 } }).ok);
  t.notOk(checkMonitorInput({ ...valid, samples: { min: 9, max: 8, targetWidth: 0.3 } }).ok);
  t.notOk(checkMonitorInput({ ...valid, samples: { min: 1, max: 8, targetWidth: 1 } }).ok);
  const big = checkMonitorInput({
    ...valid,
    prompts: Array.from({ length: 50 }, (_, i) => `p${i}`),
    platforms: [
      { platform: 'sandbox', mode: 'search' },
      { platform: 'sandbox', mode: 'search', channel: 'web' },
      { platform: 'sandbox-cn', mode: 'search' },
    ],
    samples: 20,
  });
  t.notOk(big.ok);
  if (!big.ok) t.match(big.errors[0]!.message, /3000; a region's run holds at most 2500/);
});
