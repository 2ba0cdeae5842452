/** The raw-evidence store on the real MongoDB-wire server: gzip NDJSON per attempt, latest first. */
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import mongoose from 'mongoose';
import { EvidenceStore } from '../../../services/shared/evidence.js';
import { EvidenceLog } from '../../../crawler/web/evidence-log.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';

const conn = await mongoose
  .createConnection(mongoUrl(), { dbName: uniqueDbName('evidence') })
  .asPromise();
t.teardown(async () => {
  await conn.dropDatabase();
  await conn.close();
});
const store = new EvidenceStore(conn);
await store.ensureIndexes();

function log(frames: string[]): string {
  const l = new EvidenceLog();
  l.add({ kind: 'request', url: 'https://chat.example/api/completion', method: 'POST' });
  for (const f of frames) l.frame(f);
  l.frame(Uint8Array.from([0, 0, 0, 0, 2, 123, 125]));
  return l.toNdjson();
}

t.test(
  'stored gzip-compressed under a random id; the latest attempt is the one served',
  async (t) => {
    const first = log(['data: {"v":"first"}']);
    const second = log(['data: {"v":"second"}', 'data: [DONE]']);
    const a = await store.save(first, 'sub-1', 1_000);
    const b = await store.save(second, 'sub-1', 2_000);
    t.match(a, /^[0-9a-f]{32}$/);
    t.not(a, b);
    const latest = await store.latestOf('sub-1');
    t.ok(latest);
    t.equal(latest!.id, b);
    t.equal(latest!.createdAt, 2_000);
    t.equal(gunzipSync(latest!.gzip).toString('utf8'), second);
    t.equal(latest!.size, Buffer.byteLength(second));
    t.equal(latest!.gzip[0], 0x1f, 'gzip magic');
    t.equal(await store.latestOf('sub-2'), undefined);
    t.same([...(await store.withEvidence(['sub-1', 'sub-2', 'sub-3']))], ['sub-1']);
    t.same([...(await store.withEvidence([]))], []);
    const lines = gunzipSync(latest!.gzip)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    t.match(lines.at(-1), { kind: 'frame', encoding: 'base64', data: 'AAAAAAJ7fQ==' });
  },
);

t.test('evidence too large for a document keeps its first lines and says so', async (t) => {
  const small = new EvidenceStore(conn, 2_000);
  // Random-looking frames barely compress.
  const frames = Array.from({ length: 200 }, (_, i) =>
    Buffer.from(Array.from({ length: 60 }, (_, j) => (i * 7919 + j * 104729) % 251)).toString(
      'base64',
    ),
  );
  const ndjson = log(frames);
  await small.save(ndjson, 'sub-big', 3_000);
  const stored = (await small.latestOf('sub-big'))!;
  t.ok(stored.gzip.length <= 2_000, `${stored.gzip.length} bytes fit`);
  const lines = gunzipSync(stored.gzip).toString('utf8').trim().split('\n');
  const original = ndjson.trim().split('\n');
  const note = JSON.parse(lines.at(-1)!) as { kind: string; text: string };
  t.equal(note.kind, 'note');
  t.match(note.text, new RegExp(`first ${lines.length - 1} of ${original.length} lines`));
  t.same(lines.slice(0, -1), original.slice(0, lines.length - 1), 'the first lines, unchanged');
});
