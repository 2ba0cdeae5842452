/** The stop order's pieces that need no broker: the bounded settle and the quiesce step. */
import t from 'tap';
import { ServiceBroker } from 'moleculer';
import { settleWithin, stopOrder } from '../../../services/shared/stop-order.js';

t.test('settleWithin waits for every piece of work, failed ones too', async (t) => {
  const done: string[] = [];
  const later = (ms: number, name: string, fail = false) =>
    new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        done.push(name);
        if (fail) reject(new Error(name));
        else resolve();
      }, ms),
    );
  await settleWithin(1_000, later(20, 'a'), later(40, 'b', true), later(10, 'c'));
  t.strictSame(done.sort(), ['a', 'b', 'c']);
});

t.test('settleWithin gives up after its bound', async (t) => {
  const started = Date.now();
  await settleWithin(50, new Promise(() => undefined));
  t.ok(Date.now() - started < 1_000, 'it returned at the bound');
});

t.test('every service quiesces before any service stops', async (t) => {
  const order: string[] = [];
  const broker = new ServiceBroker({ logger: false, middlewares: [stopOrder] });
  for (const name of ['one', 'two'])
    broker.createService({
      name,
      methods: {
        quiesce() {
          order.push(`${name} quiesced`);
        },
      },
      async stopped() {
        order.push(`${name} stopped`);
      },
    });
  await broker.start();
  await broker.stop();
  t.strictSame(order.slice(0, 2).sort(), ['one quiesced', 'two quiesced']);
  t.strictSame(order.slice(2).sort(), ['one stopped', 'two stopped']);
});
