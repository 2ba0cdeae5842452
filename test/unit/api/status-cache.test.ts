import t from 'tap';
import { StatusCache } from '../../../services/api/status-cache.js';

function setup(maxBytes = 1_000_000) {
  const clock = { t: 1_000, now: () => clock.t };
  const cache = new StatusCache({ maxAgeMs: 250, maxBytes, clock });
  return { clock, cache };
}

/** A read that the test finishes by hand, counting how often the cache asked for one. */
function reads() {
  const pending: ((body: Buffer) => void)[] = [];
  const read = () =>
    new Promise<Buffer>((resolve) => {
      pending.push(resolve);
    });
  return { pending, read };
}

const body = (text: string) => Buffer.from(text);

t.test('one read serves every poll until the answer is maxAgeMs old', async (t) => {
  const { clock, cache } = setup();
  let count = 0;
  const read = async () => body(`v${++count}`);
  t.equal(String(await cache.get('a', 1, read)), 'v1');
  clock.t += 249;
  t.equal(String(await cache.get('a', 1, read)), 'v1');
  clock.t += 1;
  t.equal(String(await cache.get('a', 1, read)), 'v2', 'read again at maxAgeMs');
  t.equal(count, 2);
});

t.test('polls during a read join it', async (t) => {
  const { cache } = setup();
  const r = reads();
  const polls = [cache.get('a', 1, r.read), cache.get('a', 1, r.read), cache.get('a', 1, r.read)];
  t.equal(r.pending.length, 1, 'one read for three polls');
  r.pending[0]!(body('v1'));
  t.same((await Promise.all(polls)).map(String), ['v1', 'v1', 'v1']);
});

t.test('an event drops the answer at once', async (t) => {
  const { cache } = setup();
  let count = 0;
  const read = async () => body(`v${++count}`);
  await cache.get('a', 1, read);
  await cache.get('b', 1, read);
  cache.invalidate(['a']);
  t.equal(String(await cache.get('a', 1, read)), 'v3');
  t.equal(String(await cache.get('b', 1, read)), 'v2', 'other tasks keep theirs');
});

t.test('a read that began before an event is neither kept nor joined after it', async (t) => {
  const { cache } = setup();
  const r = reads();
  const before = cache.get('a', 1, r.read);
  cache.invalidate(['a']);
  const after = cache.get('a', 1, r.read);
  t.equal(r.pending.length, 2, 'the poll after the event reads anew');
  r.pending[1]!(body('new'));
  r.pending[0]!(body('old'));
  t.equal(String(await before), 'old', 'the poll that came first gets what it read');
  t.equal(String(await after), 'new');
  t.equal(String(await cache.get('a', 1, r.read)), 'new', 'the old read was not kept');
  t.equal(r.pending.length, 2);
});

t.test('the same holds when the older read finishes last', async (t) => {
  const { cache } = setup();
  const r = reads();
  const before = cache.get('a', 1, r.read);
  cache.invalidate(['a']);
  const after = cache.get('a', 1, r.read);
  r.pending[0]!(body('old'));
  await before;
  r.pending[1]!(body('new'));
  await after;
  t.equal(String(await cache.get('a', 1, r.read)), 'new');
});

t.test('another user never gets the owner’s answer, nor joins the owner’s read', async (t) => {
  const { cache } = setup();
  let count = 0;
  await cache.get('a', 1, async () => body(`owner ${++count}`));
  await t.rejects(
    cache.get('a', 2, async () => {
      throw new Error('not found');
    }),
    /not found/,
  );
  const r = reads();
  cache.invalidate(['a']);
  const owner = cache.get('a', 1, r.read);
  const other = cache.get('a', 2, async () => {
    throw new Error('not found');
  });
  await t.rejects(other, /not found/);
  r.pending[0]!(body('owner 2'));
  t.equal(String(await owner), 'owner 2');
  t.equal(String(await cache.get('a', 1, r.read)), 'owner 2', 'still kept for its owner');
});

t.test('failed reads are not kept', async (t) => {
  const { cache } = setup();
  await t.rejects(
    cache.get('a', 1, async () => {
      throw new Error('down');
    }),
  );
  t.equal(cache.size, 0);
  t.equal(String(await cache.get('a', 1, async () => body('up'))), 'up');
});

t.test('the least recently used answers go first past maxBytes', async (t) => {
  const { cache } = setup(10);
  await cache.get('a', 1, async () => body('aaaa'));
  await cache.get('b', 1, async () => body('bbbb'));
  await cache.get('a', 1, async () => body('never read'));
  await cache.get('c', 1, async () => body('cccc'));
  t.equal(cache.size, 2);
  t.equal(String(await cache.get('a', 1, async () => body('read again'))), 'aaaa', 'a was used');
  t.equal(String(await cache.get('b', 1, async () => body('b again'))), 'b again', 'b went');
  await cache.get('big', 1, async () => body('x'.repeat(11)));
  t.equal(String(await cache.get('big', 1, async () => body('small'))), 'small', 'too big to keep');
});

t.test('answers past maxAgeMs are dropped, so finished tasks do not pile up', async (t) => {
  const { clock, cache } = setup();
  for (let i = 0; i < 100; i++) await cache.get(`done-${i}`, 1, async () => body('final'));
  t.equal(cache.size, 100, 'kept while they may be served');
  clock.t += 249;
  await cache.get('fresh', 1, async () => body('x'));
  t.equal(cache.size, 101, 'none is old enough yet');
  clock.t += 1;
  await cache.get('newer', 1, async () => body('y'));
  t.equal(cache.size, 2, 'only the answers younger than maxAgeMs stay');
  clock.t += 100;
  t.equal(String(await cache.get('newer', 1, async () => body('read'))), 'y', 'a young one serves');
});
