/**
 * Evidence bundles of real sub tasks (a sandbox-web answer driven in
 * Chromium with its screenshot, a sandbox API answer): the sub task and
 * whole-task bundles verify against the published key set, offline through
 * `aimon verify`; one flipped byte of any file or manifest fails and names
 * it; a bundle signed before a key rotation still verifies after it; and
 * another user's sub task is the same 404 as a missing one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { JSONWebKeySet } from 'jose';
import { readBundle } from '../../../bin/cli/bundle-read.js';
import { verifyBundle } from '../../../bin/cli/bundle-verify.js';
import { EXIT } from '../../../bin/cli/exit-codes.js';
import { EvidenceKeys } from '../../../services/shared/evidence-keys.js';
import { aimon, startCliService } from '../../helpers/aimon.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { flipByte, tarFileOffsets } from '../../helpers/tar-bytes.js';

const M = '/api/business/monitor';
const { svc, user, env } = await startCliService(t, 20);
const bob = await svc.newUser('bob');
const dir = await mkdtemp(join(tmpdir(), 'aimon-evidence-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

const submitted = await svc.client.post(
  `${M}/task/batch/shared`,
  {
    prompts: ['Which CRM suits a small team?'],
    platforms: [
      { platform: 'sandbox-web', mode: 'standard', screenshot: 1 },
      { platform: 'sandbox', mode: 'search' },
    ],
  },
  user.token,
);
if (submitted.status !== 200) throw new Error(submitted.text);
const task = submitted.body.data as { taskId: string; subTaskList: { subTaskId: string }[] };
const [web, api] = task.subTaskList.map((s) => s.subTaskId) as [string, string];
await untilTaskFinal(svc.client, user.token, task.taskId, 90_000, 200);

async function bytesOf(path: string, token = user.token): Promise<Buffer> {
  const res = await fetch(svc.client.baseUrl + path, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  if (res.headers.get('content-type') !== 'application/x-tar')
    throw new Error(`${path}: ${res.headers.get('content-type')}, not a tar`);
  return Buffer.from(await res.arrayBuffer());
}

async function jwks(): Promise<JSONWebKeySet> {
  const res = await svc.client.get('/.well-known/jwks.json', undefined);
  return res.body as JSONWebKeySet;
}

async function verify(tar: Buffer, keys: JSONWebKeySet) {
  const file = join(dir, `b-${Math.random().toString(16).slice(2)}.tar`);
  await writeFile(file, tar);
  return verifyBundle(await readBundle(file), keys);
}

const webPath = `${M}/task/result/${task.taskId}/${web}/evidence`;
const webBundle = await bytesOf(webPath);
const keysBefore = await jwks();

t.test('a web sub task bundle holds its evidence and verifies', async (t) => {
  const names = [...tarFileOffsets(webBundle).keys()];
  t.same(names.sort(), [
    'answer.html',
    'manifest.json',
    'manifest.jws',
    'page-screenshot.png',
    'raw-frames.ndjson',
    'request.json',
    'result.json',
  ]);
  const entries = await readBundle(await save(webBundle, 'web.tar'));
  const manifest = JSON.parse(entries.get('manifest.json')!.bytes!.toString('utf8'));
  t.match(manifest, {
    format: 'aimon-evidence/1',
    kind: 'subtask',
    taskId: task.taskId,
    subTaskId: web,
    platform: 'sandbox-web',
    channel: 'web',
    mode: { requested: 'standard', effective: 'standard' },
    serviceVersion: /^\d+\.\d+\.\d+/,
    modelReported: null,
    startedAt: /^\d{4}-/,
    endedAt: /^\d{4}-/,
  });
  t.ok(manifest.startedAt <= manifest.endedAt, 'started before it ended');
  t.same(manifest.notes, [], 'nothing missing');
  t.equal(manifest.files.length, 5, 'every file but the manifest and its signature');
  const dom = tarFileOffsets(webBundle).get('answer.html')!;
  const html = webBundle.subarray(dom.start, dom.start + dom.size).toString('utf8');
  t.match(html, /<div id="answer"[^>]*>[\s\S]*<\/div>\n$/, "the answer element's HTML");
  t.match(html, /Content-Security-Policy/, 'opens without fetching anything');
  t.notMatch(html, /<script|\son\w+=|javascript:/i, 'no script of the page');
  t.equal(keysBefore.keys.length, 1);
  t.notOk('d' in keysBefore.keys[0]!, 'no private part is published');
  const report = await verifyBundle(entries, keysBefore);
  t.same(report.failures, []);
  t.match(report.verified.join('\n'), /manifest\.jws: signature by key ev-/);
  const text = webBundle.toString('latin1');
  t.notMatch(text, user.apiKey, 'no API key');
  t.notMatch(text, user.token, 'no token');
});

t.test("result.json is the served result, byte for byte as the route's data", async (t) => {
  const whole = await bytesOf(`${M}/task/result/${task.taskId}/evidence`);
  for (const [sub, tar, name] of [
    [web, webBundle, 'result.json'],
    [api, whole, `${api}/result.json`],
  ] as const) {
    const served = await svc.client.get(`${M}/task/result/${task.taskId}/${sub}`, user.token);
    t.equal(served.status, 200, served.text);
    t.equal(
      fileText(tar, name),
      JSON.stringify(served.body.data, null, 2) + '\n',
      `${name}: the served data`,
    );
  }
  const result = JSON.parse(fileText(webBundle, 'result.json')) as {
    pageScreenshot: string;
    rawEvidence: string;
  };
  const base = svc.client.baseUrl;
  t.ok(
    result.pageScreenshot.startsWith(`${base}/`),
    `absolute screenshot ${result.pageScreenshot}`,
  );
  t.equal(result.rawEvidence, `${base}${M}/task/result/${task.taskId}/${web}/raw`);
  const raw = await fetch(result.rawEvidence, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  t.equal(raw.status, 200, 'the raw link answers');
  await raw.body?.cancel();
});

t.test('one changed byte of any file or manifest fails and names the file', async (t) => {
  for (const [name, where] of tarFileOffsets(webBundle)) {
    for (const index of [0, Math.floor(where.size / 2), where.size - 1]) {
      const report = await verify(flipByte(webBundle, name, index), keysBefore);
      t.ok(
        report.failures.some((f) => f.startsWith(`${name}:`)),
        `${name} byte ${index}: ${report.failures.join('; ')}`,
      );
    }
  }
});

t.test('aimon verify checks offline against a saved key set', async (t) => {
  const keysFile = join(dir, 'jwks.json');
  await writeFile(keysFile, JSON.stringify(keysBefore));
  const good = await aimon(['verify', await save(webBundle, 'good.tar'), '--jwks', keysFile], {
    ...env,
    AIMON_URL: 'http://127.0.0.1:9',
  });
  t.equal(good.code, EXIT.ok, good.stderr);
  t.match(good.stdout, /ok {4}raw-frames\.ndjson: SHA-256 [0-9a-f]{64}/);
  t.match(good.stdout, /verified: 7 files/);
  const bad = await aimon(
    [
      'verify',
      await save(flipByte(webBundle, 'page-screenshot.png', 100), 'bad.tar'),
      '--jwks',
      keysFile,
    ],
    env,
  );
  t.equal(bad.code, EXIT.failed);
  t.match(bad.stderr, 'verification failed: 1 problem(s)');
  t.match(bad.stderr, '- page-screenshot.png: SHA-256 differs from the manifest');
  const html = tarFileOffsets(webBundle).get('answer.html')!;
  const tampered = await aimon(
    [
      'verify',
      await save(flipByte(webBundle, 'answer.html', html.size - 10), 'dom.tar'),
      '--jwks',
      keysFile,
    ],
    env,
  );
  t.equal(tampered.code, EXIT.failed);
  t.match(tampered.stderr, '- answer.html: SHA-256 differs from the manifest');
});

t.test('the whole task bundles each sub task under a signed top manifest', async (t) => {
  const whole = await bytesOf(`${M}/task/result/${task.taskId}/evidence`);
  const names = [...tarFileOffsets(whole).keys()];
  t.ok(names.includes(`${web}/raw-frames.ndjson`) && names.includes(`${api}/result.json`));
  t.notOk(names.includes(`${api}/raw-frames.ndjson`), 'the API channel records no frames');
  t.notOk(names.includes(`${api}/answer.html`), 'nor a DOM snapshot');
  const apiManifest = (await readBundle(await save(whole, 'whole.tar'))).get(
    `${api}/manifest.json`,
  )!;
  t.match(
    JSON.parse(apiManifest.bytes!.toString('utf8')),
    { modelReported: 'sandbox-search' },
    'the model the API reported',
  );
  t.same(names.slice(-2), ['manifest.json', 'manifest.jws']);
  const report = await verify(whole, keysBefore);
  t.same(report.failures, []);
  const flipped = await verify(flipByte(whole, `${api}/manifest.json`, 10), keysBefore);
  t.match(flipped.failures, [
    `${api}/manifest.json: SHA-256 differs from the one manifest.json lists`,
    `${api}/manifest.json: differs from the manifest signed in ${api}/manifest.jws`,
  ]);
});

t.test('a bundle signed before a key rotation still verifies after it', async (t) => {
  const rotated = await new EvidenceKeys(await svc.db()).rotate(Date.now());
  const keysAfter = await jwks();
  t.equal(keysAfter.keys.length, 2, 'the retired key stays published');
  t.same((await verify(webBundle, keysAfter)).failures, []);
  const fresh = await bytesOf(webPath);
  const entries = await readBundle(await save(fresh, 'fresh.tar'));
  t.match((await verifyBundle(entries, keysAfter)).verified, [
    `manifest.jws: signature by key ${rotated.kid}`,
  ]);
  const onlyNew = { keys: keysAfter.keys.filter((k) => k.kid === rotated.kid) };
  t.match((await verify(webBundle, onlyNew)).failures, [
    /manifest\.jws: signature does not verify/,
  ]);
});

t.test('the manifest names the account by its label, nothing else of it', async (t) => {
  const db = await svc.db();
  await db.collection('accounts').insertOne({
    _id: 'acct-evidence-1' as never,
    label: 'brand-team-01',
    platform: 'sandbox-web',
    stateCipher: 'sealed-storage-state',
  });
  await db
    .collection('subtasks')
    .updateOne({ _id: web as never }, { $set: { lastAccount: 'acct-evidence-1' } });
  const bundle = await bytesOf(webPath);
  const entries = await readBundle(await save(bundle, 'account.tar'));
  const manifest = JSON.parse(entries.get('manifest.json')!.bytes!.toString('utf8'));
  t.same(manifest.account, { label: 'brand-team-01' });
  t.notMatch(bundle.toString('latin1'), /sealed-storage-state|acct-evidence-1/);
  t.same((await verifyBundle(entries, await jwks())).failures, []);
  const at = tarFileOffsets(bundle).get('request.json')!;
  const request = JSON.parse(bundle.subarray(at.start, at.start + at.size).toString('utf8'));
  t.match(request, {
    submitted: { platform: 'sandbox-web', prompt: 'Which CRM suits a small team?' },
  });
  t.type(request.sent, Array, 'the requests the page sent, from the raw frames');
});

t.test("another user's sub task is the same 404 as a missing one", async (t) => {
  const unknownTask = '3f2b8c1e-0000-4000-8000-000000000000';
  const others = await svc.client.get(webPath, bob.token);
  const missing = await svc.client.get(
    `${M}/task/result/${unknownTask}/${web}/evidence`,
    bob.token,
  );
  t.equal(others.status, 404);
  t.same(others.body, missing.body);
  t.equal(
    (await svc.client.get(`${M}/task/result/${task.taskId}/evidence`, bob.token)).status,
    404,
  );
  t.equal((await svc.client.get(`${M}/task/result/abc/evidence`, user.token)).status, 400);
  t.equal((await svc.client.get(webPath, undefined)).status, 401);
});

function fileText(tar: Buffer, name: string): string {
  const where = tarFileOffsets(tar).get(name)!;
  return tar.subarray(where.start, where.start + where.size).toString('utf8');
}

async function save(bytes: Buffer, name: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  return file;
}
