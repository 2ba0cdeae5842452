/**
 * `GET …/task/{taskId}/export`: each format read back and compared with the
 * full result JSON (CSV with an RFC 4180 parser, XLSX with exceljs), the BOM,
 * quoting, the references table, the owner-only 404 and the 400s.
 */
import t from 'tap';
import ExcelJS from 'exceljs';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { brandFields } from '../../../services/shared/brand/mentions.js';
import { domainOf, tagDomain } from '../../../services/shared/brand/domains.js';
import { visibilityOf } from '../../../services/shared/brand/visibility.js';
import type { Reference } from '../../../services/shared/contracts/answer.js';
import type { Mention, SentimentVerdict } from '../../../services/shared/contracts/brand.js';
import type { Mode } from '../../../services/shared/platforms/definition.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { answerSubTasks, download, parseCsv } from '../../helpers/exports.js';

const M = '/api/business/monitor';
const svc = await startEmbedded(t);
const alice = await svc.newUser('alice');
const bob = await svc.newUser('bob');

const KEYWORDS = 'Acme|阿克米|acme.com, Globex';
const NAME = 'Week 12, "CRM" 第十二周';
const PROMPTS = ['plain', 'with, a comma', 'a "quoted" word', 'two\nlines', '中文的提示，好吗'];
const submitted = await svc.client.post(
  `${M}/task/batch/shared`,
  {
    name: ` ${NAME} `,
    prompts: PROMPTS,
    platforms: [
      { platform: 'sandbox', mode: 'reasoning', screenshot: 1 },
      { platform: 'sandbox-web', mode: 'standard' },
    ],
    monitorKeywords: KEYWORDS,
  },
  alice.token,
);
if (submitted.status !== 200) throw new Error(submitted.text);
const taskId = submitted.body.data.taskId as string;
const entries = ['Acme|阿克米|acme.com', 'Globex'];
const groups = keywordGroups(entries);

const refs = (seq: number): Reference[] => [
  { index: 1, title: `Acme review ${seq}`, url: 'https://www.acme.com/r', site: 'Acme', icon: '' },
  { index: 2, title: 'Globex, "the" rival', url: 'https://globex.io/x', site: 'G', icon: '' },
  { index: 3, title: '新闻', url: 'https://news.example.cn/a?b=1,2', site: '新闻网', icon: '' },
];
await answerSubTasks(await svc.db(), taskId, entries, (seq) =>
  seq === 3
    ? {
        answerContent: '',
        referenceList: [],
        cited: [],
        status: 'failed',
        errorMessage: 'timed out, "twice"',
      }
    : {
        answerContent:
          seq % 2 === 0
            ? `Globex leads, then **Acme**.\n"阿克米" is 中文, with commas, and "quotes".`
            : `Nothing about them here; line one\r\nline two`,
        referenceList: refs(seq),
        cited: seq % 2 === 0 ? [1, 3] : [2],
        // The last sandbox sub task silently ran without the reasoning.
        ...(seq === 8 ? { effectiveMode: 'standard' as const } : {}),
      },
);

// A judge's verdict on the first sub task, so the sentiment columns carry one.
await (
  await svc.db()
)
  .collection('subtasks')
  .updateOne(
    { taskId, seq: 0 },
    { $set: { sentiment: [{ keyword: 'Globex', sentiment: 'negative', reason: 'slow, "late"' }] } },
  );

const full = await svc.client.get(`${M}/task/result/${taskId}`, alice.token);
if (full.status !== 200) throw new Error(full.text);
type Sub = {
  subTaskId: string;
  prompt: string;
  platform: string;
  channel: string | null;
  mode: Mode;
  effectiveMode: Mode | null;
  status: string;
  answerContent: string | null;
  referenceList: Reference[];
  citationList: Reference[];
  reasoningProcess: { summary: string; content: string } | null;
  pageScreenshot: string | null;
  errorMessage: string | null;
  mentions: Mention[];
  mentioned: boolean;
  sentiment: SentimentVerdict[] | null;
};
if (full.body.data.name !== NAME)
  throw new Error(`the full result names the task ${full.body.data.name}`);
const subs = full.body.data.subTaskList as Sub[];
if (subs.length !== 10) throw new Error(`${subs.length} sub tasks`);

/** The brand fields of the JSON result, checked against the pure API on the same answer. */
function brandOf(s: Sub) {
  const computed =
    s.status === 'completed'
      ? brandFields(groups, {
          answerContent: s.answerContent ?? '',
          referenceList: s.referenceList,
          citationList: s.citationList,
          reasoningProcess: s.reasoningProcess,
        })
      : { mentions: [], mentioned: false };
  if (
    JSON.stringify(computed) !== JSON.stringify({ mentions: s.mentions, mentioned: s.mentioned })
  ) {
    throw new Error(`the full result's mentions of ${s.subTaskId} are not the computed ones`);
  }
  return { mentions: s.mentions, mentioned: s.mentioned, sentiment: s.sentiment };
}

/** The expected sub task row, typed as XLSX keeps it (null = empty cell). */
function expectedRow(s: Sub): (string | number | boolean | null)[] {
  const brand = brandOf(s);
  return [
    NAME,
    s.subTaskId,
    s.prompt,
    s.platform,
    s.channel,
    s.mode,
    s.effectiveMode,
    s.status,
    ...groups.flatMap((g) => {
      const m = brand.mentions.find((x) => x.keyword === g.keyword);
      const verdict = brand.sentiment?.find((v) => v.keyword === g.keyword);
      return [
        m?.count ?? 0,
        m?.position ?? null,
        m?.groupRank ?? null,
        m?.firstIndex ?? null,
        m?.inCitations ?? false,
        verdict?.sentiment ?? null,
      ];
    }),
    brand.mentioned,
    s.referenceList.length,
    s.citationList.length,
    s.answerContent,
    s.pageScreenshot,
    s.errorMessage,
  ];
}

function expectedReferences(s: Sub): (string | number | boolean | null)[][] {
  return s.referenceList.map((r) => {
    const domain = domainOf(r.url);
    return [
      s.subTaskId,
      s.platform,
      s.channel,
      r.index,
      s.citationList.some((c) => c.index === r.index),
      r.title,
      r.url,
      r.site,
      domain,
      domain === null ? null : tagDomain(domain, groups).tag,
    ];
  });
}

const asText = (row: (string | number | boolean | null)[]) =>
  row.map((v) => (v === null ? '' : String(v)));
const exportPath = (query: string, id = taskId) => `${M}/task/${id}/export?${query}`;

t.test('CSV: BOM, header, one quoted row per sub task equal to the JSON result', async (t) => {
  const res = await download(svc.client.baseUrl, exportPath('format=csv'), alice.token);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/csv; charset=utf-8/);
  t.equal(res.headers.get('content-disposition'), `attachment; filename="${taskId}.csv"`);
  t.same([...res.body.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM');
  const text = res.body.toString('utf8');
  const [header, ...rows] = parseCsv(text.slice(1));
  t.same(header!.slice(0, 2), ['task name', 'subTaskId'], 'the task name first');
  t.same(header!.slice(8, 20), [
    'Acme count',
    'Acme position',
    'Acme group rank',
    'Acme first index',
    'Acme in citations',
    'Acme sentiment',
    'Globex count',
    'Globex position',
    'Globex group rank',
    'Globex first index',
    'Globex in citations',
    'Globex sentiment',
  ]);
  t.same(rows, subs.map(expectedRow).map(asText));
  t.ok(
    rows.some((r) => r[2] === 'a "quoted" word'),
    'quotes survive',
  );
  t.ok(
    rows.some((r) => r[2] === 'two\nlines'),
    'newlines survive',
  );
  t.ok(
    rows.some((r) => r[2] === '中文的提示，好吗'),
    'Chinese survives',
  );
  t.ok(text.includes('"a ""quoted"" word"'), 'quotes are doubled inside a quoted field');
  t.equal(rows[0]![header!.indexOf('Globex sentiment')], 'negative', 'the judge verdict');
  const mentioned = rows.filter((r) => r[header!.indexOf('mentioned')] === 'true');
  t.equal(mentioned.length, 5, 'the five even sub tasks name the brands');
  t.match(rows[0]![header!.indexOf('screenshot URL')], /^http:\/\/127\.0\.0\.1:\d+\/screenshots\//);
});

t.test('CSV references table: one row per reference with cited and domain tag', async (t) => {
  const res = await download(
    svc.client.baseUrl,
    exportPath('format=csv&table=references'),
    alice.token,
  );
  t.equal(res.status, 200);
  t.equal(
    res.headers.get('content-disposition'),
    `attachment; filename="${taskId}-references.csv"`,
  );
  const [header, ...rows] = parseCsv(res.body.toString('utf8').slice(1));
  t.same(header, [
    'subTaskId',
    'platform',
    'channel',
    'index',
    'cited',
    'title',
    'url',
    'site',
    'domain',
    'domain tag',
  ]);
  t.same(rows, subs.flatMap(expectedReferences).map(asText));
  t.same(
    rows.slice(0, 3).map((r) => [r[8], r[9]]),
    [
      ['acme.com', 'owned'],
      ['globex.io', 'other'],
      ['news.example.cn', 'other'],
    ],
  );
});

t.test(
  'NDJSON: each line is the task name, then the sub task exactly as the full result shows it',
  async (t) => {
    const res = await download(svc.client.baseUrl, exportPath('format=ndjson'), alice.token);
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /^application\/x-ndjson/);
    const text = res.body.toString('utf8');
    t.ok(text.endsWith('\n'));
    t.same(
      text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
      subs.map((s) => ({ taskName: NAME, ...s })),
    );
    const refs = await download(
      svc.client.baseUrl,
      exportPath('format=ndjson&table=references'),
      alice.token,
    );
    const lines = refs.body
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    t.equal(lines.length, 27);
    t.same(lines[0], {
      subTaskId: subs[0]!.subTaskId,
      platform: 'sandbox',
      channel: 'api',
      index: 1,
      cited: true,
      title: 'Acme review 0',
      url: 'https://www.acme.com/r',
      site: 'Acme',
      domain: 'acme.com',
      'domain tag': 'owned',
    });
  },
);

t.test('XLSX: the first three sheets read back with exceljs equal the JSON result', async (t) => {
  const res = await download(
    svc.client.baseUrl,
    exportPath('format=xlsx&table=references'),
    alice.token,
  );
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /spreadsheetml\.sheet/);
  t.equal(res.headers.get('content-disposition'), `attachment; filename="${taskId}.xlsx"`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.body as unknown as ArrayBuffer);
  t.same(
    book.worksheets.map((w) => w.name),
    ['sub tasks', 'references', 'visibility', 'discovered', 'opportunities'],
    'the three sheets first, then the insights (export-insights.test.ts)',
  );
  const values = (name: string) => {
    const rows: (string | number | boolean | null)[][] = [];
    book.getWorksheet(name)!.eachRow({ includeEmpty: true }, (row) => {
      // row.values is sparse (empty cells are holes) and 1-based.
      const cells = Array.from(row.values as unknown[]).slice(1);
      rows.push(cells.map((v) => (v === undefined ? null : (v as string | number | boolean))));
    });
    return rows;
  };
  const pad = (row: unknown[], n: number) => [...row, ...Array(n - row.length).fill(null)];
  const [header, ...rows] = values('sub tasks');
  t.equal(header!.length, 26);
  // XML reads a CR LF inside text as LF, so that is what a spreadsheet program shows.
  const xmlText = (v: string | number | boolean | null) =>
    typeof v === 'string' ? v.replaceAll('\r\n', '\n') : v;
  t.same(
    rows.map((r) => pad(r, 26)),
    subs.map((s) => expectedRow(s).map(xmlText)),
  );
  const [, ...refRows] = values('references');
  t.same(
    refRows.map((r) => pad(r, 10)),
    subs.flatMap(expectedReferences),
  );
  const vis = visibilityOf(
    groups,
    subs.map((s) => ({
      platform: s.platform,
      channel: (s.channel ?? undefined) as 'api' | 'web' | undefined,
      mode: s.mode,
      effectiveMode: s.effectiveMode,
      status: s.status,
      mentions: brandOf(s).mentions,
      citationList: s.citationList,
    })),
  );
  const visRows = values('visibility');
  t.equal(visRows[0]![0], 'keyword');
  const body = visRows.slice(1, 1 + vis.rows.length);
  t.same(
    body.map((r) => pad(r, 14)),
    vis.rows.map((r) => [
      r.keyword,
      r.platform,
      r.channel ?? null,
      r.mode ?? null,
      r.answers,
      r.mentionRate,
      r.averagePosition,
      r.bestPosition,
      r.top1Share,
      r.top3Share,
      r.averageGroupRank,
      r.bestGroupRank,
      r.shareOfVoice,
      r.citationShare,
    ]),
  );
  t.ok(
    vis.rows.some((r) => r.mentionRate > 0),
    'the visibility is not empty',
  );
  t.same(
    body.filter((r) => r[0] === 'Acme').map((r) => [r[1], r[3], r[4]]),
    [
      ['sandbox', 'standard', 1],
      ['sandbox', 'reasoning', 4],
      ['sandbox-web', null, 4],
    ],
    'the answer that ran without the reasoning counts as standard, in its own row',
  );
  const domainRows = visRows.slice(3 + vis.rows.length);
  t.same(
    domainRows.map((r) => pad(r, 7)),
    vis.domains.flatMap((p) =>
      p.top.map((d) => [
        p.platform,
        p.channel ?? null,
        p.mode ?? null,
        d.domain,
        d.count,
        d.tag,
        d.keyword ?? null,
      ]),
    ),
  );
  t.ok(domainRows.length > 0);
});

t.test("another user's task and an unknown one are 404 in the standard envelope", async (t) => {
  for (const [id, token] of [
    [taskId, bob.token],
    ['00000000-0000-4000-8000-000000000000', alice.token],
  ] as const) {
    const res = await svc.client.get(exportPath('format=csv', id), token);
    t.equal(res.status, 404);
    t.match(res.body, { success: false, code: 404, data: null });
  }
});

t.test('bad query parameters are one 400 listing every problem', async (t) => {
  const bad = await svc.client.get(`${M}/task/nope/export?format=pdf&table=x`, alice.token);
  t.equal(bad.status, 400);
  t.same(
    bad.body.errors.map((e: { field: string }) => e.field),
    ['taskId', 'format', 'table'],
  );
  const missing = await svc.client.get(exportPath(''), alice.token);
  t.equal(missing.status, 400);
  t.same(missing.body.errors, [{ field: 'format', message: 'format must be given once' }]);
  const twice = await svc.client.get(exportPath('format=csv&format=xlsx'), alice.token);
  t.equal(twice.status, 400);
  const unauth = await svc.client.get(exportPath('format=csv'));
  t.equal(unauth.status, 401);
});

t.test(
  'the OpenAPI document lists the route with its query from the validating schema',
  async (t) => {
    const doc = (await svc.client.get('/api/business/openapi.json')).body;
    const get = doc.paths['/api/business/monitor/task/{taskId}/export'].get;
    const param = (name: string) => get.parameters.find((p: { name: string }) => p.name === name);
    t.match(param('format'), {
      in: 'query',
      required: true,
      schema: { enum: ['csv', 'ndjson', 'xlsx'] },
    });
    t.match(param('table'), {
      in: 'query',
      required: false,
      schema: { enum: ['subtasks', 'references', 'discovered', 'opportunities'] },
    });
    t.same(Object.keys(get.responses).sort(), ['200', '400', '401', '404', '429', '500', '503']);
  },
);

t.test('a task whose sub tasks are still being written exports the planned ones too', async (t) => {
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts: ['p1', 'p2', 'p3'], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    alice.token,
  );
  const id = res.body.data.taskId as string;
  const db = await svc.db();
  await db
    .collection('tasks')
    .updateOne({ _id: id as never }, { $set: { subtasksWritten: false } });
  await db.collection('subtasks').deleteOne({ taskId: id, seq: 1 });
  const result = await svc.client.get(`${M}/task/result/${id}`, alice.token);
  t.equal(result.body.data.subTaskList.length, 3);
  const exported = await svc.client.get(exportPath('format=ndjson', id), alice.token);
  t.same(
    exported.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l)),
    result.body.data.subTaskList.map((s: object) => ({ taskName: null, ...s })),
  );
});
