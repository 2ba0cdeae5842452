import t from 'tap';
import { attachmentName } from '../../../bin/cli/attachment.js';
import { listText } from '../../../bin/cli/list-format.js';
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
