/**
 * The insight tables of `GET …/task/{taskId}/export` (issue 36) over a real
 * sandbox batch, every role in one process: `table=discovered` and
 * `table=opportunities` in CSV and NDJSON, and the XLSX sheets of the same
 * names after the three it always had, each read back and compared with
 * `GET …/task/{taskId}/visibility`; the sub tasks table is unchanged.
 */
import t, { type Test } from 'tap';
import ExcelJS from 'exceljs';
import { startSandboxServer } from '../../../sandbox/server.js';
import type {
  CitationOpportunity,
  DiscoveredBrand,
  Visibility,
} from '../../../services/shared/contracts/brand.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { download, parseCsv } from '../../helpers/exports.js';
import { untilTaskFinal } from '../../helpers/task-final.js';

const sandbox = await startSandboxServer({ latencyMs: 20 });
t.teardown(() => sandbox.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '8',
});
const alice = await svc.newUser('alice');
const M = '/api/business/monitor';
const NAME = 'Insights, "week 1"';

const submitted = await svc.client.post(
  `${M}/task/batch/shared`,
  {
    name: NAME,
    prompts: ['best CRM for a small team', '最好的客服软件', 'top help desk software'],
    platforms: [
      { platform: 'sandbox', mode: 'search' },
      { platform: 'sandbox', mode: 'search', channel: 'web' },
    ],
    monitorKeywords: 'Acme, Globex',
  },
  alice.token,
);
if (submitted.status !== 200) throw new Error(submitted.text);
const taskId = submitted.body.data.taskId as string;
await untilTaskFinal(svc.client, alice.token, taskId, 90_000, 100);
const v = (await svc.client.get(`${M}/task/${taskId}/visibility`, alice.token)).body
  .data as Visibility;
const exportPath = (query: string) => `${M}/task/${taskId}/export?${query}`;

/** A place as the table names it, and a list cell's lines. */
const place = (p: { platform: string; channel?: string; mode?: string }) =>
  [p.platform, p.channel, p.mode].filter(Boolean).join(' ');
const lines = (cell: unknown) => (cell === '' || cell === null ? [] : String(cell).split('\n'));

/** The discovered table's rows as the visibility's records give them, independently of the writer. */
function expectDiscovered(t: Test, rows: unknown[][], text: (x: unknown) => unknown) {
  t.ok(v.discovered.length > 0, 'the sandbox recommends brands nobody watches');
  t.equal(rows.length, v.discovered.length, 'a row per discovered brand');
  v.discovered.forEach((d: DiscoveredBrand, i) => {
    const r = rows[i]!;
    t.same(
      r.slice(0, 5).map(text),
      [d.name, d.answers, d.share, d.averagePosition, d.bestPosition].map(text),
      `${d.name}: figures`,
    );
    t.same(
      lines(r[5]),
      d.places.map((p) => `${place(p)}: ${p.answers} (${p.share})`),
      `${d.name}: where`,
    );
    t.same(r.slice(6, 9), [d.example.subTaskId, d.example.platform, d.example.prompt]);
  });
}

function expectOpportunities(t: Test, rows: unknown[][], text: (x: unknown) => unknown) {
  t.ok(
    v.opportunities.some((o) => o.answers > 0 && o.pages.length > 0),
    'some domain is cited where Acme is missing',
  );
  t.equal(rows.length, v.opportunities.length, 'a row per opportunity domain');
  v.opportunities.forEach((o: CitationOpportunity, i) => {
    const r = rows[i]!;
    t.same(
      r.slice(0, 6).map(text),
      [o.domain, o.tag, o.keyword ?? null, o.answers, o.userAnswers, o.retrievedAnswers].map(text),
      `${o.domain}: figures and the contrast count`,
    );
    t.same(lines(r[6]), o.competitors, `${o.domain}: competitors`);
    t.same(
      lines(r[7]),
      o.pages.map((p) => p.url),
      `${o.domain}: page URLs`,
    );
    t.same(
      lines(r[8]),
      o.pages.map((p) => p.title),
      `${o.domain}: titles, line by line`,
    );
    t.same(
      lines(r[9]),
      o.retrieved.map((p) => p.url),
      `${o.domain}: retrieved URLs`,
    );
    t.same(
      lines(r[10]),
      o.retrieved.map((p) => p.title),
    );
    t.same(lines(r[11]), o.prompts, `${o.domain}: prompts`);
    t.same(lines(r[12]), o.places.map(place), `${o.domain}: platforms`);
  });
}

/** CSV cells are text: numbers compare as their text, an absent value as ''. */
const csvText = (x: unknown) => (x === null || x === undefined ? '' : String(x));

t.test('CSV: the discovered brands and the opportunity domains, each a table', async (t) => {
  const brands = await download(
    svc.client.baseUrl,
    exportPath('format=csv&table=discovered'),
    alice.token,
  );
  t.equal(brands.status, 200);
  t.equal(
    brands.headers.get('content-disposition'),
    `attachment; filename="${taskId}-discovered.csv"`,
  );
  const text = brands.body.toString('utf8');
  t.ok(text.startsWith('\uFEFF'), 'BOM');
  const [header, ...rows] = parseCsv(text.slice(1));
  t.same(header!.slice(0, 5), ['name', 'answers', 'share', 'average position', 'best position']);
  expectDiscovered(t, rows, csvText);

  const domains = await download(
    svc.client.baseUrl,
    exportPath('format=csv&table=opportunities'),
    alice.token,
  );
  t.equal(domains.status, 200);
  t.equal(
    domains.headers.get('content-disposition'),
    `attachment; filename="${taskId}-opportunities.csv"`,
  );
  const [domainHeader, ...domainRows] = parseCsv(domains.body.toString('utf8').slice(1));
  t.same(domainHeader!.slice(0, 6), [
    'domain',
    'tag',
    'keyword',
    'answers',
    'user answers',
    'retrieved answers',
  ]);
  expectOpportunities(t, domainRows, csvText);

  const subTasks = parseCsv(
    (await download(svc.client.baseUrl, exportPath('format=csv'), alice.token)).body
      .toString('utf8')
      .slice(1),
  );
  t.equal(subTasks.length, 1 + 6, 'the sub tasks table is as it was: a row per sub task');
  t.equal(subTasks[0]![0], 'task name');
});

t.test('NDJSON: the visibility records, each with the task name', async (t) => {
  for (const table of ['discovered', 'opportunities'] as const) {
    const res = await download(
      svc.client.baseUrl,
      exportPath(`format=ndjson&table=${table}`),
      alice.token,
    );
    t.equal(res.status, 200);
    const records = res.body
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    t.same(
      records,
      v[table].map((r) => ({ taskName: NAME, ...r })),
      `${table}: one line per record`,
    );
    t.ok(records.length > 0);
  }
});

t.test('XLSX: the sheets "discovered" and "opportunities" after the other three', async (t) => {
  const res = await download(svc.client.baseUrl, exportPath('format=xlsx'), alice.token);
  t.equal(res.status, 200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.body as unknown as ArrayBuffer);
  t.same(
    book.worksheets.map((w) => w.name),
    ['sub tasks', 'references', 'visibility', 'discovered', 'opportunities'],
  );
  const values = (name: string) => {
    const rows: unknown[][] = [];
    book.getWorksheet(name)!.eachRow({ includeEmpty: true }, (row) => {
      const cells = Array.from(row.values as unknown[]).slice(1);
      rows.push(cells.map((c) => (c === undefined ? null : c)));
    });
    return rows;
  };
  // Spreadsheet cells keep numbers as numbers; an empty cell reads back as absent.
  const same = (x: unknown) => (x === undefined || x === '' ? null : x);
  const [, ...brands] = values('discovered');
  expectDiscovered(t, brands, same);
  const [, ...domains] = values('opportunities');
  expectOpportunities(t, domains, same);
});
