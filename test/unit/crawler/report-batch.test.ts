import t from 'tap';
import { ReportBatch } from '../../../crawler/report-batch.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A batch whose sends are recorded; `fail` makes the next send reject. */
function recorded(windowMs: number, max: number) {
  const sent: number[][] = [];
  let fail: Error | undefined;
  const batch = new ReportBatch<number>(
    async (items) => {
      sent.push(items);
      if (fail) {
        const err = fail;
        fail = undefined;
        throw err;
      }
    },
    windowMs,
    max,
  );
  return { batch, sent, failNext: (err: Error) => (fail = err) };
}

t.test('reports within the window go in one call, in order', async (t) => {
  const { batch, sent } = recorded(20, 100);
  const delivered = [batch.add(1), batch.add(2)];
  await sleep(5);
  delivered.push(batch.add(3));
  t.strictSame(sent, [], 'nothing is sent before the window ends');
  await Promise.all(delivered);
  t.strictSame(sent, [[1, 2, 3]]);
  await batch.add(4);
  t.strictSame(sent, [[1, 2, 3], [4]], 'a later report starts a new batch');
});

t.test('a full batch goes at once, without waiting out the window', async (t) => {
  const { batch, sent } = recorded(60_000, 3);
  await Promise.all([batch.add(1), batch.add(2), batch.add(3)]);
  t.strictSame(sent, [[1, 2, 3]]);
  const fourth = batch.add(4);
  batch.flush();
  await fourth;
  t.strictSame(sent, [[1, 2, 3], [4]], 'flush sends a partial batch now');
});

t.test('a failed call fails every report in it, and only those', async (t) => {
  const { batch, sent, failNext } = recorded(5, 100);
  failNext(new Error('no tasks service'));
  const first = [batch.add(1), batch.add(2)];
  for (const p of first) await t.rejects(p, /no tasks service/);
  await batch.add(3);
  t.strictSame(sent, [[1, 2], [3]]);
});

t.test('flushing with nothing gathered sends nothing', async (t) => {
  const { batch, sent } = recorded(5, 100);
  batch.flush();
  await sleep(10);
  t.strictSame(sent, []);
});
