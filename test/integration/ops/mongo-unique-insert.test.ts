/**
 * Unique keys and stored documents on the local MongoDB-wire server. Its
 * unique indexes order keys without serialising them and it stores documents
 * as BSON (infra/mongo-java/src/KeyValueType.java, DocumentType.java); these
 * are the answers MongoDB gives, which that must keep, also after a restart.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  BSON,
  Binary,
  Decimal128,
  Double,
  Int32,
  Long,
  MongoBulkWriteError,
  MongoClient,
  ObjectId,
  Timestamp,
  type Collection,
  type Document,
} from 'mongodb';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';
import { ROOT } from '../../../infra/processes.js';

const run = promisify(execFile);
const client = await MongoClient.connect(mongoUrl());
const db = client.db(uniqueDbName('unique'));
t.teardown(async () => {
  await db.dropDatabase();
  await client.close();
});

const ids = async (col: Collection<Document>) =>
  (await col.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id as unknown).sort();

async function insertError(
  col: Collection<Document>,
  docs: Document[],
  ordered: boolean,
): Promise<MongoBulkWriteError> {
  try {
    await col.insertMany(docs, { ordered });
  } catch (err) {
    if (err instanceof MongoBulkWriteError) return err;
    throw err;
  }
  throw new Error('insertMany succeeded');
}

/** [index, code] of each write error the driver reports. */
const writeErrors = (err: MongoBulkWriteError) =>
  [err.writeErrors].flat().map((w) => [w.index, w.code]);

const batch = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ({ _id: `s${from + i}` as never, n: from + i }));

t.test('ordered insert: stops at the duplicate in the middle and reports it', async (t) => {
  const col = db.collection<Document>('ordered');
  await col.insertOne({ _id: 's5' as never, n: -1 });
  const err = await insertError(col, batch(0, 10), true);
  t.equal(err.code, 11000);
  t.equal(err.result.insertedCount, 5, 's0 to s4');
  t.strictSame(writeErrors(err), [[5, 11000]]);
  t.strictSame(await ids(col), ['s0', 's1', 's2', 's3', 's4', 's5']);
  t.strictSame(await col.findOne({ _id: 's5' as never }), { _id: 's5', n: -1 }, 'not replaced');
});

t.test('unordered insert: stores the rest and reports every duplicate', async (t) => {
  const col = db.collection<Document>('unordered');
  await col.insertMany([{ _id: 's3' as never }, { _id: 's7' as never }]);
  const docs = [...batch(0, 10), { _id: 's0' as never, n: 99 }];
  const err = await insertError(col, docs, false);
  t.equal(err.result.insertedCount, 8);
  t.strictSame(
    writeErrors(err),
    [
      [3, 11000],
      [7, 11000],
      [10, 11000],
    ],
    'the two stored before and the repeat within the batch',
  );
  t.equal(await col.countDocuments({}), 10);
  t.equal((await col.findOne({ _id: 's0' as never }))?.n, 0, 'the first of the batch kept');
});

t.test('_ids of every kind: equal values collide, distinct ones do not', async (t) => {
  const col = db.collection<Document>('kinds');
  const oid = new ObjectId();
  const distinct: unknown[] = [
    'a',
    'b',
    '',
    oid,
    new ObjectId(),
    new Int32(1),
    new Long(2),
    new Double(2.5),
    true,
    false,
    { k: 1, j: 'x' },
    { j: 'x', k: 1 },
    new Date(0),
  ];
  await col.insertMany(distinct.map((_id) => ({ _id })) as Document[]);
  t.equal(await col.countDocuments({}), distinct.length);
  for (const dup of [
    'a',
    oid,
    new Double(1),
    new Long(1),
    new Int32(2),
    true,
    { k: 1, j: 'x' },
    new Date(0),
  ]) {
    const err = await insertError(col, [{ _id: dup }], true);
    t.equal(err.code, 11000, `duplicate ${JSON.stringify(dup)}`);
  }
  t.equal(await col.countDocuments({}), distinct.length, 'nothing more stored');
  t.equal(await col.countDocuments({ _id: oid as never }), 1);
  t.equal(await col.countDocuments({ _id: { k: 1, j: 'x' } as never }), 1);
  t.equal((await col.deleteOne({ _id: 'b' as never })).deletedCount, 1);
  await col.insertOne({ _id: 'b' as never, again: true });
  t.equal((await col.findOne({ _id: 'b' as never }))?.again, true, 'a removed key is free again');
});

t.test('a unique compound index refuses duplicates, by insert and by update', async (t) => {
  const col = db.collection<Document>('compound');
  await col.createIndex({ taskId: 1, seq: 1 }, { unique: true });
  await col.insertMany([
    { _id: 'x' as never, taskId: 't', seq: 1 },
    { _id: 'y' as never, taskId: 't', seq: 2 },
  ]);
  t.equal((await insertError(col, [{ taskId: 't', seq: 1 }], true)).code, 11000);
  await t.rejects(col.updateOne({ _id: 'y' as never }, { $set: { seq: 1 } }), { code: 11000 });
  await col.updateOne({ _id: 'y' as never }, { $set: { seq: 3 } });
  await col.insertOne({ _id: 'z' as never, taskId: 't', seq: 2 });
  t.equal(await col.countDocuments({}), 3);
  await col.dropIndex('taskId_1_seq_1');
  await col.insertOne({ _id: 'w' as never, taskId: 't', seq: 2 });
  t.equal(await col.countDocuments({ seq: 2 }), 2, 'no longer unique once dropped');
});

t.test('collStats: the size of the documents stored now', async (t) => {
  const col = db.collection<Document>('sizes');
  await col.insertMany(batch(0, 50).map((d) => ({ ...d, text: 'x'.repeat(d.n) })));
  await col.updateMany({ n: { $lt: 10 } }, { $set: { text: 'longer '.repeat(30) } });
  await col.deleteMany({ n: { $gte: 40 } });
  const stored = await col.find({}).toArray();
  const expected = stored.reduce((sum, d) => sum + BSON.calculateObjectSize(d), 0);
  const stats = await db.command({ collStats: 'sizes' });
  t.equal(stats.count, 40);
  t.equal(stats.size, expected);
});

/** Every BSON type the service or a driver may store, to read back after a restart. */
const KINDS: Document = {
  _id: 'kinds',
  s: 'text 请列出理由 \u{1F600}',
  i: new Int32(-7),
  l: Long.fromString('9007199254740993'),
  d: new Double(0.1),
  b: false,
  n: null,
  date: new Date(1_700_000_000_123),
  oid: new ObjectId('64b7f0000000000000000001'),
  bin: new Binary(Buffer.from([0, 1, 2, 255])),
  dec: Decimal128.fromString('1.10'),
  ts: new Timestamp({ t: 1_700_000_000, i: 3 }),
  arr: [1, 'two', { three: [3] }, []],
  doc: { nested: { deeper: 'yes' }, empty: {} },
};

t.test('documents and unique keys survive a restart of the server', async (t) => {
  const name = `unique-restart-${process.pid}`;
  const mongoSh = join(ROOT, 'infra/mongo.sh');
  const start = async () => (await run('bash', [mongoSh, 'start', name])).stdout.trim();
  const stop = () => run('bash', [mongoSh, 'stop', name]);
  t.teardown(async () => {
    await stop();
    await rm(join(ROOT, `var/mongo-${name}`), { recursive: true, force: true });
  });
  const many = batch(0, 3000).map((d) => ({ ...d, pad: 'p'.repeat(200) }));

  const raw = { promoteValues: false, promoteLongs: false, promoteBuffers: false };
  let c = await MongoClient.connect(await start());
  let col = c.db('restart').collection<Document>('docs');
  await col.insertMany([KINDS, ...many]);
  const before = await col.findOne({ _id: 'kinds' as never }, raw);
  await c.close();
  await stop();

  c = await MongoClient.connect(await start());
  col = c.db('restart').collection<Document>('docs');
  const after = await col.findOne({ _id: 'kinds' as never }, raw);
  t.strictSame(after, before, 'every value of the same BSON type');
  t.strictSame(Object.keys(after!), Object.keys(KINDS), 'fields in their order');
  t.equal((after!.l as Long).toString(), '9007199254740993');
  t.equal((after!.dec as Decimal128).toString(), '1.10');
  t.strictSame([...(after!.bin as Binary).buffer], [0, 1, 2, 255]);
  t.equal(after!.s, KINDS.s);
  t.equal(await col.countDocuments({}), 3001);
  t.equal((await col.findOne({ _id: 's2999' as never }))?.n, 2999);
  const err = await insertError(col, [{ _id: 's3000' }, { _id: 's1500' }], true);
  t.equal(err.result.insertedCount, 1, 'the index was kept');
  await c.close();
});
