/**
 * `GET …/task/result/{taskId}/{subTaskId}/raw`: a sub task's raw evidence,
 * to its owner only, gzip-encoded for clients that accept it and plain for
 * the rest; and the `rawEvidence` link of result views.
 */
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import {
  envelopeOf,
  resultDataSchema,
  subTaskResultSchema,
} from '../../../services/shared/contracts/http.js';
import { EvidenceStore } from '../../../services/shared/evidence.js';
import { startEmbedded } from '../../helpers/cluster.js';

const M = '/api/business/monitor';
const svc = await startEmbedded(t);
const alice = await svc.newUser('alice');
const bob = await svc.newUser('bob');

const submitted = await svc.client.post(
  `${M}/task/batch/shared`,
  {
    prompts: ['one'],
    platforms: [
      { platform: 'sandbox-web', mode: 'standard' },
      { platform: 'sandbox', mode: 'standard' },
    ],
  },
  alice.token,
);
const task = submitted.body.data as { taskId: string; subTaskList: { subTaskId: string }[] };
const [web, api] = task.subTaskList.map((s) => s.subTaskId) as [string, string];
const NDJSON =
  '{"t":0,"kind":"request","url":"http://site.test/chat","method":"POST","body":"{}"}\n' +
  '{"t":5,"kind":"frame","data":"data: {\\"v\\":\\"你好\\"}"}\n';
const store = new EvidenceStore(await svc.db());
await store.save('{"t":0,"kind":"note","text":"an earlier attempt"}\n', web, 1_000);
await store.save(NDJSON, web, 2_000);

const rawPath = (sub: string, taskId = task.taskId) => `${M}/task/result/${taskId}/${sub}/raw`;

/** A GET whose body arrives exactly as sent (fetch would decompress it). */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = httpRequest(svc.client.baseUrl + path, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

t.test('the owner gets the latest attempt, gzip-encoded when accepted', async (t) => {
  const auth = { authorization: `Bearer ${alice.token}` };
  const zipped = await rawGet(rawPath(web), { ...auth, 'accept-encoding': 'gzip, deflate, br' });
  t.equal(zipped.status, 200);
  t.equal(zipped.headers['content-encoding'], 'gzip');
  t.match(zipped.headers['content-type'], /^application\/x-ndjson/);
  t.match(zipped.headers.vary, /Accept-Encoding/i);
  t.equal(gunzipSync(zipped.body).toString('utf8'), NDJSON);

  for (const plainly of [
    {} as Record<string, string>,
    { 'accept-encoding': 'identity' },
    { 'accept-encoding': 'br' },
  ]) {
    const plain = await rawGet(rawPath(web), { ...auth, ...plainly });
    t.equal(plain.status, 200);
    t.equal(plain.headers['content-encoding'], undefined, JSON.stringify(plainly));
    t.equal(plain.body.toString('utf8'), NDJSON);
  }
  const viaFetch = await svc.client.get(
    rawPath(web.toUpperCase(), task.taskId.toUpperCase()),
    alice.token,
  );
  t.equal(viaFetch.status, 200);
  t.equal(viaFetch.text, NDJSON, 'any case of the ids; an ordinary client just reads it');
});

t.test('nobody else learns that it exists; none is a 404', async (t) => {
  const unknownTask = '3f2b8c1e-0000-4000-8000-000000000000';
  const others = await svc.client.get(rawPath(web), bob.token);
  const missing = await svc.client.get(rawPath(web, unknownTask), bob.token);
  t.equal(others.status, 404);
  t.same(others.body, missing.body, "another user's sub task answers as one that does not exist");
  t.notMatch(others.text, /frame/);
  const none = await svc.client.get(rawPath(api), alice.token);
  t.equal(none.status, 404);
  t.match(none.body, { success: false, code: 404, message: /raw evidence not found/ });
  t.equal((await svc.client.get(rawPath('nope'), alice.token)).status, 404);
  t.equal((await svc.client.get(rawPath(web, 'abc'), alice.token)).status, 400);
  t.equal((await svc.client.get(rawPath(web), undefined)).status, 401);
});

t.test('result views link the raw evidence, or say null', async (t) => {
  const base = svc.client.baseUrl;
  const one = await svc.client.get(`${M}/task/result/${task.taskId}/${web}`, alice.token);
  t.equal(envelopeOf(subTaskResultSchema).parse(one.body).data.rawEvidence, base + rawPath(web));
  const other = await svc.client.get(`${M}/task/result/${task.taskId}/${api}`, alice.token);
  t.equal(envelopeOf(subTaskResultSchema).parse(other.body).data.rawEvidence, null);
  const all = await svc.client.get(`${M}/task/result/${task.taskId}`, alice.token);
  const { data } = envelopeOf(resultDataSchema).parse(all.body);
  t.same(
    data.subTaskList.map((s) => [s.subTaskId, s.rawEvidence]),
    [
      [web, base + rawPath(web)],
      [api, null],
    ],
  );
  const followed = await svc.client.get(
    data.subTaskList[0]!.rawEvidence!.slice(base.length),
    alice.token,
  );
  t.equal(followed.text, NDJSON);
});
