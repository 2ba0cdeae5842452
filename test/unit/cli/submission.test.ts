import t from 'tap';
import { buildSubmission, promptsOfFile, screenshotLevel } from '../../../bin/cli/submission.js';
import { buildMonitor, parseSamples } from '../../../bin/cli/monitor-input.js';
import { planApply, planText, readMonitorsFile } from '../../../bin/cli/monitor-apply.js';
import { checkMonitorInput } from '../../../services/shared/requests/monitor.js';

t.test('prompts of a file: one per non-blank line, CRLF and BOM alike', async (t) => {
  t.same(promptsOfFile('\uFEFFfirst\r\n\r\n  second  \nthird'), ['first', 'second', 'third']);
  t.same(promptsOfFile(''), []);
});

t.test('screenshot levels', async (t) => {
  t.equal(screenshotLevel(undefined), 0);
  t.equal(screenshotLevel(true), 1);
  t.equal(screenshotLevel('1'), 1);
  t.equal(screenshotLevel('2'), 2);
  t.equal(screenshotLevel('mentions'), 2);
  t.throws(() => screenshotLevel('3'), { code: 1 });
});

t.test('the request body carries only what was given', async (t) => {
  t.same(buildSubmission(['p'], { platform: ['sandbox'] }), {
    prompts: ['p'],
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
  });
  t.same(
    buildSubmission(['a', 'b'], {
      platform: ['chatgpt:search', 'doubao:reasoning:web'],
      name: 'Week 12',
      region: '310100',
      keywords: 'Acme|acme.com,Globex',
      callback: 'https://hooks.example.com/x',
      screenshot: '2',
    }),
    {
      name: 'Week 12',
      prompts: ['a', 'b'],
      platforms: [
        { platform: 'chatgpt', mode: 'search', screenshot: 2 },
        { platform: 'doubao', mode: 'reasoning', channel: 'web', screenshot: 2 },
      ],
      regionCode: ['310100'],
      monitorKeywords: 'Acme|acme.com,Globex',
      callbackUrl: 'https://hooks.example.com/x',
    },
  );
});

t.test('no prompts or no platforms are usage errors', async (t) => {
  t.throws(() => buildSubmission([], { platform: ['sandbox'] }), {
    code: 1,
    message: /no prompts/,
  });
  t.throws(() => buildSubmission(['p'], { platform: [] }), { code: 1, message: /no platforms/ });
});

t.test('monitor create: the body from the options, one schedule', async (t) => {
  const base = {
    name: 'daily',
    platform: ['sandbox:search'],
    keywords: 'Acme',
    timezone: 'UTC',
    region: [],
  };
  t.same(buildMonitor(['best CRM'], { ...base, cron: '0 9 * * *', samples: '3:10:0.4' }), {
    name: 'daily',
    prompts: ['best CRM'],
    platforms: [{ platform: 'sandbox', mode: 'search' }],
    regionCodes: [],
    monitorKeywords: 'Acme',
    samples: { min: 3, max: 10, targetWidth: 0.4 },
    schedule: { cron: '0 9 * * *', timezone: 'UTC' },
    enabled: true,
  });
  t.match(buildMonitor(['x'], { ...base, every: '60', disabled: true }), {
    schedule: { everyMinutes: 60 },
    enabled: false,
  });
  t.equal(parseSamples('4'), 4);
  t.throws(() => parseSamples('3:10'), /--samples takes a count/);
  t.throws(() => buildMonitor(['x'], base), /give a schedule/);
  t.throws(
    () => buildMonitor(['x'], { ...base, cron: '* * * * *', every: '5' }),
    /give a schedule/,
  );
});

const FILE = `
monitors:
  - name: CRM daily
    prompts: [best CRM, {text: CRM for a bakery, tags: [smb]}]
    platforms: [{platform: sandbox, mode: search}]
    monitorKeywords: Acme, Globex
    samples: {min: 3, max: 10, targetWidth: 0.4}
    schedule: {cron: "0 9 * * *", timezone: Asia/Shanghai}
  - name: Tools hourly
    prompts: [which project tool]
    platforms: [{platform: sandbox, channel: api, mode: standard}]
    monitorKeywords: Initech
    schedule: {everyMinutes: 60}
`;

t.test('apply: the file read with every problem at once', async (t) => {
  const desired = readMonitorsFile(FILE);
  t.same(
    desired.map((d) => d.name),
    ['CRM daily', 'Tools hourly'],
  );
  t.same(
    readMonitorsFile(`- ${JSON.stringify(desired[1]!.body)}`)[0]!.body,
    desired[1]!.body,
    'a list at the top, JSON too',
  );
  const bad = `monitors:\n  - name: a\n    prompts: []\n  - name: a\n    prompts: [x]\n    platforms: [{platform: sandbox, mode: search}]\n    monitorKeywords: A\n    schedule: {everyMinutes: 5}\n  - name: a\n    prompts: [x]\n    platforms: [{platform: sandbox, mode: search}]\n    monitorKeywords: A\n    schedule: {everyMinutes: 5}\n`;
  const err = (() => {
    try {
      readMonitorsFile(bad);
    } catch (e) {
      return e as { details: string[] };
    }
  })();
  t.ok(
    err?.details.some((d) => d.startsWith('monitors[0].prompts: ')),
    'the first monitor',
  );
  t.ok(err?.details.some((d) => d.startsWith('monitors[0].schedule: ')));
  t.ok(err?.details.includes('monitors[2].name: "a" appears twice in the file'));
  t.throws(() => readMonitorsFile('monitors: 3'), /holds no monitors/);
  t.throws(() => readMonitorsFile('a: [b'), /not YAML/);
});

t.test('apply: create, update with the fields that differ, unchanged', async (t) => {
  const desired = readMonitorsFile(FILE);
  const stored = (body: Record<string, unknown>, id: string) => {
    const checked = checkMonitorInput(body);
    if (!checked.ok) throw new Error('bad fixture');
    // A stored monitor's view: its input without the parsed keywords, and its own fields.
    const view: Record<string, unknown> = { ...checked.value };
    delete view.keywords;
    return {
      ...(view as unknown as Omit<typeof checked.value, 'keywords'>),
      monitorId: id,
      createdAt: 0,
      updatedAt: 0,
      nextDueAt: null,
    };
  };
  const first = planApply(desired, []);
  t.same(
    first.map((s) => s.action),
    ['create', 'create'],
  );
  t.match(
    planText(first, true),
    /would create 2, would update 0, 0 unchanged \(dry run: nothing changed\)$/,
  );
  const existing = [
    stored(desired[0]!.body, 'id-1'),
    stored({ ...desired[1]!.body, monitorKeywords: 'Hooli' }, 'id-2'),
  ];
  const second = planApply(desired, existing);
  t.same(
    second.map((s) => s.action),
    ['unchanged', 'update'],
    'defaults the service fills in are no difference',
  );
  const text = planText(second, false);
  t.match(text, /^= unchanged "CRM daily"$/m);
  t.match(text, /^~ update "Tools hourly" \(id-2\)\n {4}monitorKeywords: "Hooli" → "Initech"$/m);
  t.match(text, /updated 1, 1 unchanged$/);
  const third = planApply(desired, [existing[0]!, stored(desired[1]!.body, 'id-2')]);
  t.equal(
    planText(third, false),
    '= unchanged "CRM daily"\n= unchanged "Tools hourly"\nnothing to change: 2 monitors up to date',
  );
  t.throws(
    () => planApply(desired, [existing[0]!, { ...existing[0]!, monitorId: 'id-3' }]),
    /2 of your monitors are named "CRM daily"/,
  );
});
