import t from 'tap';
import { attachmentName } from '../../../bin/cli/attachment.js';
import { listText } from '../../../bin/cli/list-format.js';
import {
  changesText,
  monitorsText,
  monitorText,
  runText,
  trendsText,
  watchText,
} from '../../../bin/cli/monitor-format.js';
import { verdictText, platformsText } from '../../../bin/cli/platforms-format.js';
import { matchesRegion, regionsText } from '../../../bin/cli/regions-format.js';
import { clip } from '../../../bin/cli/table.js';

t.test('clip: one line, at most max characters', async (t) => {
  t.equal(clip('a\n b\tc', 10), 'a b c');
  t.equal(clip('abcdefghij', 5), 'abcd…');
  t.equal(clip(null, 5), '');
});

t.test('list: a row per task and the page line', async (t) => {
  const text = listText({
    total: 12,
    page: 2,
    size: 5,
    tasks: [
      {
        taskId: 'T1',
        name: 'Week 12, a name longer than the thirty characters',
        prompts: ['first prompt', 'second'],
        platforms: [
          { platform: 'kimi', channel: 'api', mode: 'search', screenshot: 0 },
          { platform: 'doubao', channel: null, mode: 'standard', screenshot: 1 },
        ],
        status: 'processing',
        totalItems: 4,
        completedItems: 1,
        failedItems: 1,
        createdAt: Date.UTC(2026, 10, 26, 12, 0, 0),
        completedAt: null,
      },
    ],
  });
  t.match(
    text,
    '│ T1     │ Week 12, a name longer than t… │ processing │ 1/1/4             │ kimi (api) search, doubao standard │ 2: first prompt │ 2026-11-26T12:00:00.000Z │',
  );
  t.equal(text.split('\n').at(-1), 'page 2 of 3, 12 tasks');
  t.equal(
    listText({ total: 0, page: 1, size: 10, tasks: [] }).split('\n').at(-1),
    'page 1 of 1, 0 tasks',
  );
});

t.test('platforms: channels with their modes and the service’s verdict per channel', async (t) => {
  t.equal(verdictText({ available: true, missing: [], reason: null }), 'yes');
  t.equal(
    verdictText({ available: false, missing: ['account'], reason: 'no usable account' }),
    'no (no usable account)',
  );
  t.equal(
    verdictText({
      available: null,
      missing: [],
      reason: 'no crawler node is up yet: submitted work waits',
    }),
    'unknown (no crawler node is up yet: submitted work waits)',
  );
  const text = platformsText([
    {
      platform: 'kimi',
      label: 'Kimi',
      vendor: 'Moonshot AI',
      aliases: [],
      modes: ['standard'],
      channel: 'web',
      defaultChannel: 'api',
      serves: 'everywhere',
      channels: { api: ['standard', 'search'], web: ['standard'] },
      available: true,
      availability: {
        api: { available: false, missing: ['node'], reason: 'no live crawler node runs it' },
        web: { available: true, missing: [], reason: null },
      },
    },
  ]);
  t.match(
    text,
    /│ kimi\s+│ Kimi\s+│ api: standard, search │ web\s+│ api: no \(no live crawler node runs it\) │/,
  );
  t.match(text, /│\s+│\s+│ web: standard\s+│\s+│ web: yes\s+│/, 'one channel per line');
});

t.test('regions: code prefix or name; the most specific code shown', async (t) => {
  const sh = {
    port: 1,
    province: '上海市',
    city: '上海市',
    regionCode: ['310000', '310100'],
    outIp: 'a',
    active: true,
  };
  const gd = {
    port: 2,
    province: 'Guangdong',
    city: 'Shenzhen',
    regionCode: ['440000', '440300'],
    outIp: 'b',
    active: false,
  };
  t.ok(matchesRegion(sh, undefined));
  t.ok(matchesRegion(sh, ' '));
  t.ok(matchesRegion(sh, '31'));
  t.ok(matchesRegion(sh, '310100'));
  t.notOk(matchesRegion(sh, '1001'), 'a code matches from its start');
  t.ok(matchesRegion(sh, '上海'));
  t.ok(matchesRegion(gd, 'shen'), 'names case-insensitively');
  t.notOk(matchesRegion(gd, '上海'));
  t.match(regionsText([sh, gd]), /│ 440300\s+│ Guangdong │ Shenzhen │ 2\s+│ no\s+│ b\s+│/);
});

t.test('attachment names stay in the current directory', async (t) => {
  t.equal(attachmentName('attachment; filename="T.csv"', 'f'), 'T.csv');
  t.equal(attachmentName('attachment; filename=T-references.ndjson', 'f'), 'T-references.ndjson');
  t.equal(attachmentName('attachment; filename="../../etc/passwd"', 'f'), 'passwd');
  t.equal(attachmentName('attachment; filename=".."', 'f'), 'f');
  t.equal(attachmentName(null, 'fallback.csv'), 'fallback.csv');
});

const rate = (value: number | null, lower: number | null, upper: number | null, n: number) => ({
  value,
  lower,
  upper,
  n,
});

t.test('monitor trends: a table per series, the rate with its interval', async (t) => {
  const point = {
    runId: 'r1',
    slot: Date.UTC(2026, 0, 2, 9),
    finishedAt: Date.UTC(2026, 0, 2, 9, 5),
    mentionRate: rate(0.5, 0.2366, 0.7634, 10),
    position: { mean: 1.5, sd: 0.5, n: 5 },
    shareOfVoice: 0.25,
    citationShare: null,
    topDomains: [],
    stability: 0.8123,
    funnel: {
      n: 10,
      inReasoning: 6,
      inReferences: 4,
      inCitations: 2,
      inAnswer: 5,
      consideredButDropped: rate(0.1, 0.02, 0.4, 10),
    },
    models: ['gpt-5'],
    modelChanged: true,
    samples: { cells: 2, asked: 10, meanPerCell: 5 },
  };
  const text = trendsText({
    definitionsVersion: 2,
    groupBy: 'platform',
    from: null,
    to: null,
    channelGap: [],
    series: [
      { group: 'chatgpt', keyword: 'Acme', points: [point] },
      {
        group: 'deepseek',
        keyword: 'Acme',
        points: [{ ...point, mentionRate: rate(null, null, null, 0), position: null }],
      },
    ],
  });
  t.match(text, /^platform chatgpt · Acme$/m);
  t.match(text, /│ 2026-01-02T09:00:00\.000Z │ 50\.0 % \[23\.7 %–76\.3 %\] n=10 │ 1\.5 ± 0\.5/);
  t.match(text, /│ 25\.0 % +│ - +│ 0\.81 +│ 10 \/ 2 cells │ gpt-5 \(changed\) │/);
  t.match(text, /^platform deepseek · Acme$/m);
  t.match(text, /│ n = 0 +│ - +│/, 'no answer: no rate');
  t.match(text, /definitions version 2$/);
  t.equal(
    trendsText({
      definitionsVersion: 2,
      groupBy: 'platform',
      from: null,
      to: null,
      channelGap: [],
      series: [],
    }),
    'no finished runs in this range',
  );
});

t.test('monitor changes: one row per change with its scope', async (t) => {
  const change = {
    id: 'c1',
    monitorId: 'm1',
    runId: 'r2',
    previousRunId: 'r1',
    slot: 0,
    detectedAt: Date.UTC(2026, 0, 3),
    kind: 'brand_lost',
    scope: {
      level: 'cell',
      regionCode: '310000',
      platform: 'chatgpt',
      channel: 'api',
      mode: 'search',
      prompt: 0,
    },
    keyword: 'Acme',
    domain: null,
    before: 0.9,
    after: 0.2,
    detail: 'mention rate 90 % → 20 %, intervals apart',
  };
  const text = changesText({
    definitionsVersion: 2,
    changes: [
      change,
      {
        ...change,
        kind: 'domain_added',
        scope: { ...change.scope, level: 'group', regionCode: null, prompt: null },
        keyword: null,
        domain: 'acme.com',
        before: null,
        after: null,
        detail: 'newly cited',
      },
    ],
  });
  t.match(
    text,
    /│ brand_lost +│ cell: 310000, chatgpt api search, prompt 1 │ Acme +│ 0\.90 → 0\.20/,
  );
  t.match(text, /│ domain_added │ group: chatgpt api search +│ acme\.com +│ - → - +│ newly cited/);
  t.match(text, /2 changes, definitions version 2$/);
  t.equal(changesText({ definitionsVersion: 2, changes: [] }), 'no changes larger than the noise');
});

t.test(
  'monitor list and run: schedules, adaptive samples, cells with the calls saved',
  async (t) => {
    const monitor = {
      monitorId: '0b6f3f3e-8a55-4a8e-9a63-3c1f0d1f9e21',
      name: 'CRM daily',
      prompts: [{ text: 'best CRM', tags: ['crm'] }],
      platforms: [
        { platform: 'sandbox', channel: 'api' as const, mode: 'search' as const, screenshot: 0 },
      ],
      regionCodes: [],
      monitorKeywords: 'Acme',
      samples: { min: 3, max: 10, targetWidth: 0.4 },
      schedule: { cron: '0 9 * * *', timezone: 'Asia/Shanghai' },
      callbackUrl: null,
      digest: false,
      enabled: true,
      createdAt: 0,
      updatedAt: 0,
      nextDueAt: Date.UTC(2026, 0, 1, 1),
    };
    const list = monitorsText({ total: 1, page: 1, size: 20, monitors: [monitor] });
    t.match(
      list,
      /│ CRM daily │ yes +│ 0 9 \* \* \* \(Asia\/Shanghai\) │ 1 +│ sandbox \(api\) search │ 3–10 to width 0\.4 │/,
    );
    t.match(list, /page 1 of 1, 1 monitors$/);
    t.match(
      monitorText({ ...monitor, schedule: { everyMinutes: 60 } }),
      /^schedule: every 60 min$/m,
    );
    t.match(monitorText(monitor), /^ {2}1\. best CRM \[crm\]$/m);
    const text = runText({
      runId: '5d0a4b8e-2f7c-4c55-8d2e-9e7a1b3c4d5f',
      monitorId: monitor.monitorId,
      trigger: 'manual',
      slot: 0,
      status: 'finished',
      createdAt: 0,
      finishedAt: 1,
      samplesTaken: 6,
      samplesSaved: 4,
      regions: [
        {
          regionCode: null,
          taskId: '7c1e2d3f-4a5b-4c6d-8e7f-1a2b3c4d5e6f',
          submitted: true,
          taskStatus: 'completed',
          error: null,
          followUps: [
            {
              round: 1,
              taskId: '8d2f3e4a-5b6c-4d7e-9f8a-2b3c4d5e6f7a',
              cells: 1,
              samples: 3,
              submitted: true,
              error: null,
            },
          ],
          samplesTaken: 6,
          callsSaved: 4,
          cells: [
            {
              prompt: 'best CRM',
              platform: 'sandbox',
              channel: 'api',
              mode: 'search',
              samplesTaken: 6,
              answered: 6,
              ranOtherMode: 0,
              targetWidth: 0.4,
              width: 0.3903,
              callsSaved: 4,
              stability: 1,
              brands: [
                { keyword: 'Acme', mentionRate: { value: 1, lower: 0.6097, upper: 1, n: 6 } },
              ],
            },
          ],
        },
      ],
    });
    t.match(
      text,
      /^run 5d0a4b8e-\S+ \(manual, slot 1970-01-01T00:00:00\.000Z\): finished, 6 samples taken, 4 saved$/m,
    );
    t.match(text, /^region \(none\): task 7c1e2d3f-\S+ completed, 1 follow-up tasks$/m);
    t.match(
      text,
      /│ best CRM │ sandbox api search │ 6 \(6 answered\) │ 100\.0 % \[61\.0 %–100\.0 %\] n=6 │ 0\.39 +│ 4 +│/,
    );
  },
);

t.test('monitor trends list the discovered brands; a watch says what it did', async (t) => {
  const share = (value: number, lower: number, upper: number, n: number) => ({
    value,
    lower,
    upper,
    n,
  });
  const text = trendsText({
    definitionsVersion: 3,
    groupBy: 'platform',
    from: null,
    to: null,
    channelGap: [],
    series: [],
    discovered: [
      {
        group: 'sandbox',
        name: 'Initech',
        watched: false,
        answers: 3,
        points: [
          { slot: 1, share: share(0, 0, 0.66, 2), position: null },
          { slot: 2, share: share(0.75, 0.3, 0.95, 4), position: { mean: 2 } },
        ],
      },
      { group: 'sandbox', name: 'Hooli', watched: true, answers: 1, points: [] },
    ],
  });
  t.match(text, /^discovered brands \(recommended, not watched\) by platform$/m);
  t.match(
    text,
    /│ sandbox │ Initech │ 75\.0 % \[30\.0 %–95\.0 %\] n=4 │ 0\.0 % → 75\.0 % │ 2\.0 +│ no +│/,
  );
  t.match(text, /│ sandbox │ Hooli +│ - +│ - +│ - +│ yes +│/);
  const monitor = { name: 'CRM daily', monitorKeywords: 'Acme, Initech' } as never;
  t.equal(
    watchText({ added: true, keyword: 'Initech', monitor }),
    'now watching "Initech" in "CRM daily": the next run measures it (keywords: Acme, Initech)',
  );
  t.equal(
    watchText({ added: false, keyword: 'Initech', monitor }),
    '"CRM daily" watches it already, as the group "Initech"',
  );
});
