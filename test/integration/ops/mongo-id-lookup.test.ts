/**
 * Queries that name `_id`s together with other conditions, the shape of every
 * guarded update the service makes. The local MongoDB-wire server reads those
 * documents by `_id` instead of scanning (infra/mongo-java/src/IdLookupBackend.java);
 * these are the answers MongoDB gives, which that shortcut must keep. Also:
 * index builds racing inserts, which that backend serialises.
 */
import t from 'tap';
import { MongoClient, ObjectId, type Collection, type Document } from 'mongodb';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';

const client = await MongoClient.connect(mongoUrl(), { maxPoolSize: 60 });
const db = client.db(uniqueDbName('idlookup'));
t.teardown(async () => {
  await db.dropDatabase();
  await client.close();
});

async function fresh(name: string, docs: Document[]): Promise<Collection<Document>> {
  const col = db.collection<Document>(name);
  await col.insertMany(docs);
  return col;
}

t.test('one _id plus a guard: a hit updates, a miss changes nothing', async (t) => {
  const col = await fresh('guarded', [
    { _id: 'a' as never, status: 'pending', attempts: 0 },
    { _id: 'b' as never, status: 'processing', attempts: 1 },
  ]);
  const hit = await col.findOneAndUpdate(
    { _id: 'a' as never, status: 'pending' },
    { $set: { status: 'processing' }, $inc: { attempts: 1 } },
    { returnDocument: 'after', projection: { attempts: 1 } },
  );
  t.strictSame(hit, { _id: 'a', attempts: 1 }, 'projected document after the update');
  const miss = await col.findOneAndUpdate(
    { _id: 'b' as never, status: 'pending' },
    { $set: { status: 'done' } },
  );
  t.equal(miss, null, 'the guard does not hold');
  t.equal(
    (await col.updateOne({ _id: 'zz' as never, status: 'pending' }, { $set: { x: 1 } }))
      .matchedCount,
    0,
  );
  t.equal(await col.countDocuments({ _id: 'b' as never, status: 'processing' }), 1);
  t.equal(await col.countDocuments({ _id: 'b' as never, status: 'pending' }), 0);
  t.equal((await col.deleteOne({ _id: 'a' as never, status: 'pending' })).deletedCount, 0);
  t.equal((await col.deleteOne({ _id: 'a' as never, status: 'processing' })).deletedCount, 1);
  t.strictSame(await col.find({}).toArray(), [{ _id: 'b', status: 'processing', attempts: 1 }]);
});

t.test('ObjectId ids and conditions on other fields with operators', async (t) => {
  const id = new ObjectId();
  const col = await fresh('objectids', [
    { _id: id, n: 5, tags: ['x', 'y'] },
    { _id: new ObjectId(), n: 5, tags: ['x'] },
  ]);
  t.equal(await col.countDocuments({ _id: id, n: { $gte: 5 }, tags: 'y' }), 1);
  t.equal(await col.countDocuments({ _id: id, n: { $lt: 5 } }), 0);
  t.equal(await col.countDocuments({ _id: id, $or: [{ n: 1 }, { tags: 'y' }] }), 1);
});

t.test('_id $in a list plus a guard: only the listed documents that match', async (t) => {
  const col = await fresh(
    'batch',
    Array.from({ length: 10 }, (_, i) => ({
      _id: `s${i}` as never,
      status: i === 3 ? 'processing' : 'pending',
    })),
  );
  const ids = ['s1', 's2', 's3', 's4', 'missing', 's2'];
  const res = await col.updateMany(
    { _id: { $in: ids as never[] }, status: 'pending' },
    { $set: { status: 'processing', token: 'T' } },
  );
  t.equal(res.matchedCount, 3, 's1, s2 and s4 (s3 was not pending; duplicates count once)');
  const claimed = await col
    .find({ _id: { $in: ids as never[] }, token: 'T' }, { projection: { _id: 1 } })
    .sort({ _id: 1 })
    .toArray();
  t.strictSame(
    claimed.map((d) => d._id),
    ['s1', 's2', 's4'],
  );
  t.equal(await col.countDocuments({ status: 'pending' }), 6, 'nothing else changed');
  t.equal(await col.countDocuments({ _id: { $in: [] as never[] }, status: 'pending' }), 0);
});

t.test('ids that are not strings or ObjectIds still match as MongoDB does', async (t) => {
  const col = await fresh('numbers', [
    { _id: 1 as never, v: 'int' },
    { _id: 2.5 as never, v: 'double' },
  ]);
  t.equal(await col.countDocuments({ _id: 1.0 as never, v: 'int' }), 1, 'numbers compare by value');
  t.equal(await col.countDocuments({ _id: { $in: [2.5, 7] } as never, v: 'double' }), 1);
  t.equal(await col.countDocuments({ _id: { $gt: 0 } as never, v: { $exists: true } }), 2);
});

t.test('concurrent guarded claims of one document: exactly one wins', async (t) => {
  const col = await fresh('race', [{ _id: 'only' as never, status: 'pending' }]);
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      col.findOneAndUpdate(
        { _id: 'only' as never, status: 'pending' },
        { $set: { status: 'processing', token: `t${i}` } },
      ),
    ),
  );
  t.equal(results.filter((r) => r !== null).length, 1);
  const batches = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      col.updateMany(
        { _id: { $in: ['only' as never] }, status: 'processing' },
        { $set: { status: 'done', by: i } },
      ),
    ),
  );
  t.equal(
    batches.reduce((n, r) => n + r.modifiedCount, 0),
    1,
    'one batch update took it',
  );
});

t.test('indexes built while documents are inserted: every insert succeeds', async (t) => {
  for (let round = 0; round < 10; round++) {
    const col = db.collection<Document>(`indexed${round}`);
    const inserts = Array.from({ length: 5 }, (_, b) =>
      col.insertMany(
        Array.from({ length: 50 }, (_, i) => ({ _id: `r${b}-${i}` as never, a: i, b, c: 'x' })),
      ),
    );
    const specs: Record<string, 1>[] = [{ a: 1 }, { b: 1, a: 1 }, { c: 1 }];
    const indexes = specs.map((k) => col.createIndex(k));
    await Promise.all([...inserts, ...indexes]);
    t.equal(await col.countDocuments({}), 250);
  }
});
