/**
 * The MCP server (services/api/mcp/) with the SDK's own client: over
 * Streamable HTTP at `/mcp` on the embedded default with every role, and over
 * stdio through `aimon mcp` (the built CLI). Every tool, the two resources,
 * one user's tools against another's task and monitor, a finished monitor
 * run's trends and changes, argument errors naming the field, and the
 * operator tool's role check.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import t from 'tap';
import { builtEntry } from '../../../infra/processes.js';
import { TOOLS } from '../../../services/api/mcp/tools.js';
import { ScreenshotStore } from '../../../services/shared/screenshots.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { until } from '../../helpers/wait.js';
import {
  changesSchema,
  DEFINITIONS_VERSION,
  trendsSchema,
} from '../../../services/shared/contracts/monitor-trends.js';

const svc = await startEmbedded(t, { SERVICES: 'all', SANDBOX_LATENCY_MS: '20' });
const alice = await svc.newUser('alice');
const bob = await svc.newUser('bob');

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${svc.client.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  t.teardown(() => client.close());
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

const text = (r: CallToolResult) =>
  r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

const asAlice = await connect(alice.token);
const asBob = await connect(bob.token);

t.test('tools are listed with their schemas and annotations', async (t) => {
  const { tools } = await asAlice.listTools();
  t.strictSame(
    tools.map((x) => x.name),
    TOOLS.map((x) => x.name),
  );
  const submit = tools.find((x) => x.name === 'submit_batch')!;
  t.match(submit.annotations, { readOnlyHint: false, idempotentHint: false });
  t.ok(submit.inputSchema.required?.includes('prompts'), 'the REST submission schema');
  for (const name of ['task_results', 'monitor_trends', 'monitor_changes'])
    t.match(tools.find((x) => x.name === name)!.annotations, {
      readOnlyHint: true,
      idempotentHint: true,
    });
});

let taskId = '';

t.test('a batch submitted, waited for and read through the tools', async (t) => {
  const platforms = await call(asAlice, 'list_platforms');
  t.notOk(platforms.isError, text(platforms));
  t.ok(
    (platforms.structuredContent!.platforms as { platform: string }[]).some(
      (p) => p.platform === 'sandbox',
    ),
  );

  const submitted = await call(asAlice, 'submit_batch', {
    prompts: ['best CRM for a small team', 'which CRM is cheapest'],
    platforms: [
      { platform: 'sandbox', mode: 'standard' },
      { platform: 'sandbox', mode: 'search', channel: 'api' },
    ],
    monitorKeywords: 'Acme, Globex',
  });
  t.notOk(submitted.isError, text(submitted));
  taskId = submitted.structuredContent!.taskId as string;
  t.match(text(submitted), new RegExp(`submitted task ${taskId}: 2 sub tasks`));

  const status = await call(asAlice, 'task_status', { taskId, waitSeconds: 40 });
  t.equal(status.structuredContent!.status, 'completed', text(status));

  const firstPage = await call(asAlice, 'task_results', { taskId, limit: 1 });
  t.match(firstPage.structuredContent, { total: 2, offset: 0, nextOffset: 1 });
  const list = firstPage.structuredContent!.subTaskList as { subTaskId: string }[];
  t.equal(list.length, 1);
  t.match(text(firstPage), /1 of 2 matching sub tasks.*more from offset 1/);
  const second = await call(asAlice, 'task_results', { taskId, offset: 1, limit: 1 });
  t.match(second.structuredContent, { total: 2, nextOffset: null });

  const noMode = await call(asAlice, 'task_results', { taskId, mode: 'reasoning' });
  t.equal(noMode.structuredContent!.total, 0, 'filtered by mode');

  const one = await call(asAlice, 'subtask_result', { taskId, subTaskId: list[0]!.subTaskId });
  t.equal(one.structuredContent!.subTaskId, list[0]!.subTaskId);
  t.match(
    text(one),
    /^sandbox \(api, standard, model sandbox-standard\): completed, mentioned: (yes|no); answer: /,
    'the summary names the model the platform reported',
  );
  t.equal(one.structuredContent!.modelReported, 'sandbox-standard');

  const visibility = await call(asAlice, 'task_visibility', { taskId });
  t.strictSame(visibility.structuredContent!.keywords, ['Acme', 'Globex']);
  const rest = await svc.client.get(`/api/business/monitor/task/${taskId}/visibility`, alice.token);
  t.strictSame(
    visibility.structuredContent!.discovered,
    rest.body.data.discovered,
    'the discovered brands, as REST gives them',
  );
  t.strictSame(visibility.structuredContent!.opportunities, rest.body.data.opportunities);
  const discovered = rest.body.data.discovered as { name: string; answers: number }[];
  t.ok(discovered.length > 0, 'the sandbox recommends brands nobody watched');
  t.match(
    text(visibility),
    `not watched: ${discovered[0]!.name} (${discovered[0]!.answers} answers)`,
  );

  const link = await call(asAlice, 'export_link', { taskId, format: 'csv' });
  const url = link.structuredContent!.url as string;
  t.equal(url, `${svc.client.baseUrl}/api/business/monitor/task/${taskId}/export?format=csv`);
  const file = await fetch(url, { headers: { authorization: `Bearer ${alice.token}` } });
  t.equal(file.status, 200, 'the link downloads with the same token');
  await file.arrayBuffer();

  for (const args of [{ taskId }, { taskId, subTaskId: list[0]!.subTaskId }]) {
    const evidence = await call(asAlice, 'evidence_link', args);
    const bundle = await fetch(evidence.structuredContent!.url as string, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    t.equal(bundle.headers.get('content-type'), 'application/x-tar', JSON.stringify(args));
    await bundle.arrayBuffer();
    t.equal(evidence.structuredContent!.jwks, `${svc.client.baseUrl}/.well-known/jwks.json`);
  }

  const tasks = await call(asAlice, 'list_tasks', { size: '5' });
  t.match(tasks.structuredContent, { total: 1, page: 1, size: 5 });

  const cities = await call(asAlice, 'city_lookup', { deduplicate: 'true' });
  t.notOk(cities.isError, text(cities));
  t.ok(Array.isArray(cities.structuredContent!.ports));
});

t.test('resources: a task result and a screenshot', async (t) => {
  const listed = await asAlice.listResources();
  t.ok(listed.resources.some((r) => r.uri === `aimon://task/${taskId}`));
  const read = await asAlice.readResource({ uri: `aimon://task/${taskId}` });
  const body = JSON.parse((read.contents[0] as { text: string }).text) as { taskId: string };
  t.equal(body.taskId, taskId);

  const png = Buffer.from('89504e470d0a1a0a', 'hex');
  const id = await new ScreenshotStore(await svc.db()).save(png, 'sub', Date.now());
  const shot = await asAlice.readResource({ uri: `aimon://screenshot/${id}` });
  t.match(shot.contents[0], { mimeType: 'image/png', blob: png.toString('base64') });
  await t.rejects(asAlice.readResource({ uri: `aimon://screenshot/${'0'.repeat(32)}` }));
});

t.test("one user's tools never reach another's task", async (t) => {
  const status = await call(asBob, 'task_status', { taskId });
  t.equal(status.isError, true);
  t.match(text(status), /^404 NOT_FOUND/);
  const results = await call(asBob, 'task_results', { taskId });
  t.equal(results.isError, true);
  await t.rejects(asBob.readResource({ uri: `aimon://task/${taskId}` }));
  const bobs = await call(asBob, 'list_tasks', {});
  t.match(bobs.structuredContent, { total: 0 });
});

t.test('bad arguments are a tool error naming the field', async (t) => {
  const badId = await call(asAlice, 'task_status', { taskId: 'not-a-uuid' });
  t.equal(badId.isError, true);
  t.match(text(badId), /taskId/);
  const badWait = await call(asAlice, 'task_status', { taskId, waitSeconds: 999 });
  t.match(text(badWait), /waitSeconds/);
  const empty = await call(asAlice, 'submit_batch', { prompts: [], platforms: [] });
  t.equal(empty.isError, true);
  t.match(text(empty), /prompts/);
  t.match(text(empty), /platforms/);
  // Well formed, refused by the service's own check: no account runs DeepSeek's site here.
  const unavailable = await call(asAlice, 'submit_batch', {
    prompts: ['x'],
    platforms: [{ platform: 'deepseek', channel: 'web', mode: 'standard' }],
  });
  t.equal(unavailable.isError, true);
  t.match(text(unavailable), /^400 VALIDATION_FAILED[\s\S]*- platforms\[0\]/m);
  const tasks = await call(asAlice, 'list_tasks', {});
  t.equal(tasks.structuredContent!.total, 1, 'nothing stored by a refused submission');
});

t.test(
  'a call registers only its tool, yet an unknown one is named and nothing else changes',
  async (t) => {
    const unknown = await call(asAlice, 'no_such_tool');
    t.equal(unknown.isError, true);
    t.match(text(unknown), /Tool no_such_tool not found/);
    t.strictSame(asAlice.getServerCapabilities(), {
      tools: { listChanged: true },
      resources: { listChanged: true },
    });
  },
);

let monitorId = '';

t.test('monitors: created, listed, run now and their runs read, as their owner only', async (t) => {
  const created = await call(asAlice, 'monitor_create', {
    name: 'CRM daily',
    prompts: ['best CRM for a small team'],
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
    monitorKeywords: 'Acme, Globex',
    samples: 2,
    schedule: { cron: '0 9 * * *', timezone: 'Asia/Shanghai' },
  });
  t.notOk(created.isError, text(created));
  monitorId = created.structuredContent!.monitorId as string;
  t.match(text(created), /^created monitor .* \(CRM daily\)$/);
  const listed = await call(asAlice, 'monitor_list', {});
  t.match(listed.structuredContent, { total: 1, page: 1 });
  const run = await call(asAlice, 'monitor_run', { monitorId });
  t.notOk(run.isError, text(run));
  t.equal(run.structuredContent!.monitorId, monitorId);
  const runs = await call(asAlice, 'monitor_runs', { monitorId });
  t.match(runs.structuredContent, { total: 1 });
  const foreign = await call(asBob, 'monitor_run', { monitorId });
  t.equal(foreign.isError, true);
  t.match(text(foreign), /^404 NOT_FOUND/);
  const badCron = await call(asAlice, 'monitor_create', {
    name: 'x',
    prompts: ['y'],
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
    monitorKeywords: 'Acme',
    samples: 1,
    schedule: { cron: '61 * * * *', timezone: 'UTC' },
  });
  t.equal(badCron.isError, true);
  t.match(text(badCron), /schedule\.cron/);
  // Refused by the trends and changes queries' schemas before the monitors service is asked.
  const badGroup = await call(asAlice, 'monitor_trends', { monitorId, groupBy: 'week' });
  t.equal(badGroup.isError, true);
  t.match(text(badGroup), /groupBy/);
  const badFrom = await call(asAlice, 'monitor_trends', { monitorId, from: 'last week' });
  t.match(text(badFrom), /ISO 8601 time .* or milliseconds since the epoch at from/);
  const badChanges = await call(asAlice, 'monitor_changes', {
    monitorId: 'not-a-uuid',
    limit: '501',
    kind: 'moved',
  });
  t.equal(badChanges.isError, true);
  for (const field of ['monitorId', 'limit', 'kind'])
    t.match(text(badChanges), new RegExp(` at ${field}$`, 'm'), `names ${field}`);
});

t.test('monitor_trends and monitor_changes: a finished run, as its owner only', async (t) => {
  await until('the run now to finish', async () => {
    const runs = await call(asAlice, 'monitor_runs', { monitorId });
    const [run] = runs.structuredContent!.runs as { status: string }[];
    return run?.status === 'finished';
  });
  const trends = await call(asAlice, 'monitor_trends', { monitorId, from: '2020-01-01' });
  t.notOk(trends.isError, text(trends));
  const data = trendsSchema.parse(trends.structuredContent);
  t.equal(data.definitionsVersion, DEFINITIONS_VERSION);
  t.equal(data.groupBy, 'platform', 'the default grouping');
  t.equal(data.from, Date.parse('2020-01-01'), 'the window as the action read it');
  t.strictSame(
    data.series.map((s) => [s.group, s.keyword, s.points.length]),
    [
      ['sandbox', 'Acme', 1],
      ['sandbox', 'Globex', 1],
    ],
    'one point per keyword entry: the one finished run',
  );
  const [point] = data.series[0]!.points;
  t.match(point, { samples: { cells: 1, asked: 2 }, mentionRate: { n: 2 } });
  t.strictSame(data.channelGap, [], 'asked on the API channel only: no gap');
  t.strictSame(
    data.discovered.map((s) => [s.name, s.watched, s.points.map((p) => p.share.value)]),
    [
      ['Initech', false, [1]],
      ['Hooli', false, [1]],
    ],
    'the brands the answers recommend that no group watches, each named in both samples',
  );
  t.match(data.insights, { discovered: [{ name: 'Initech', answers: 2 }, { name: 'Hooli' }] });
  t.equal(
    text(trends),
    `2 series by platform, 2 points, 2 discovered brand series (2 not watched), 0 API–web gap series (definitions v${DEFINITIONS_VERSION})`,
  );

  const changes = await call(asAlice, 'monitor_changes', { monitorId, limit: '10' });
  t.notOk(changes.isError, text(changes));
  t.strictSame(changesSchema.parse(changes.structuredContent), {
    definitionsVersion: DEFINITIONS_VERSION,
    changes: [],
  });
  t.equal(text(changes), '0 changes', 'one run: nothing to compare with');

  // The owner check: another user's monitor is as unknown as a missing one.
  for (const name of ['monitor_trends', 'monitor_changes']) {
    const foreign = await call(asBob, name, { monitorId });
    t.equal(foreign.isError, true, `${name} refuses bob`);
    t.match(text(foreign), /^404 NOT_FOUND/, `${name}: 404`);
    t.notOk(foreign.structuredContent, `${name}: no data`);
  }
});

t.test('monitor_watch: a discovered brand becomes a group, once; as its owner only', async (t) => {
  const watched = await call(asAlice, 'monitor_watch', { monitorId, name: 'Hooli' });
  t.notOk(watched.isError, text(watched));
  t.match(watched.structuredContent, {
    added: true,
    keyword: 'Hooli',
    monitor: { monitorId, monitorKeywords: 'Acme, Globex, Hooli' },
  });
  t.equal(text(watched), `now watching Hooli in monitor ${monitorId}; the next run measures it`);
  const again = await call(asAlice, 'monitor_watch', { monitorId, name: 'HOOLI' });
  t.match(again.structuredContent, { added: false, keyword: 'Hooli' }, 'idempotent');
  const trends = trendsSchema.parse(
    (await call(asAlice, 'monitor_trends', { monitorId })).structuredContent,
  );
  t.strictSame(
    trends.discovered.map((s) => [s.name, s.watched]),
    [
      ['Initech', false],
      ['Hooli', true],
    ],
  );
  const foreign = await call(asBob, 'monitor_watch', { monitorId, name: 'Initech' });
  t.match(text(foreign), /^404 NOT_FOUND/);
  // Refused by the body's schema (the REST one) before the monitors service is asked.
  const bad = await call(asAlice, 'monitor_watch', { monitorId: 'x', name: 'Acme, Inc.' });
  t.equal(bad.isError, true);
  for (const field of ['monitorId', 'name'])
    t.match(text(bad), new RegExp(` at ${field}$`, 'm'), `names ${field}`);
});

t.test('the operator tool needs the operator role', async (t) => {
  const refused = await call(asAlice, 'crawler_nodes');
  t.equal(refused.isError, true);
  t.match(text(refused), /403 FORBIDDEN: operator role required/);
  await svc.broker.call('users.setRole', { userId: alice.userId, role: 'operator' });
  const nodes = await call(asAlice, 'crawler_nodes');
  t.notOk(nodes.isError, text(nodes));
  t.ok((nodes.structuredContent!.nodes as unknown[]).length >= 1);
});

t.test('without a token, /mcp is a 401', async (t) => {
  const res = await fetch(`${svc.client.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  t.equal(res.status, 401);
  await res.arrayBuffer();
});

t.test('aimon mcp serves the same tools over stdio, as the stored login', async (t) => {
  const client = new Client({ name: 'stdio-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [builtEntry('bin/aimon.ts'), 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        AIMON_URL: svc.client.baseUrl,
        AIMON_API_KEY: bob.apiKey,
        AIMON_CONFIG: '/nonexistent/aimon.json',
      },
      stderr: 'pipe',
    }),
  );
  t.teardown(() => client.close());
  const { tools } = await client.listTools();
  t.strictSame(
    tools.map((x) => x.name),
    TOOLS.map((x) => x.name),
  );
  const mine = await client.callTool({ name: 'list_tasks', arguments: {} });
  t.match(mine.structuredContent, { total: 0 }, "bob's login: bob's tasks");
  const theirs = (await client.callTool({
    name: 'task_status',
    arguments: { taskId },
  })) as CallToolResult;
  t.equal(theirs.isError, true);
});
