import t from 'tap';
import { CounterMender } from '../../../services/tasks/mender.js';
import type { Mended } from '../../../services/shared/subtasks/ledger.js';
import type { Finished } from '../../../services/shared/contracts/events.js';

function mender(answers: Record<string, (Mended | Error)[]>, perTick = 10) {
  const asked: string[] = [];
  const announced: string[] = [];
  const warned: string[] = [];
  const m = new CounterMender({
    async mend(taskId) {
      asked.push(taskId);
      const next = answers[taskId]!.shift() ?? { done: false };
      if (next instanceof Error) throw next;
      return next;
    },
    async announce(finished) {
      announced.push(finished.taskId);
    },
    warn: (message) => warned.push(message),
    everyMs: 1_000,
    perTick,
  });
  return { m, asked, announced, warned };
}

const finish = (taskId: string): Finished => ({
  taskId,
  userId: 1,
  status: 'completed',
  completedAt: 1,
});

t.test('a suspect is asked again each tick until the ledger says it is done', async (t) => {
  const { m, asked, announced } = mender({
    a: [{ done: false }, { done: false }, { done: true, finished: finish('a') }],
    b: [{ done: true }],
  });
  m.suspect(['a', 'b', 'a']);
  t.equal(m.size, 2, 'a suspect is held once');
  await m.tick();
  t.strictSame(asked, ['a', 'b']);
  t.equal(m.size, 1, 'b needed nothing (already final)');
  await m.tick();
  await m.tick();
  t.strictSame(announced, ['a'], 'the finish it made is announced');
  t.equal(m.size, 0);
  await m.tick();
  t.equal(asked.length, 4, 'nothing left to ask');
});

t.test('a failing mend keeps the suspect and warns', async (t) => {
  const { m, warned } = mender({ a: [new Error('db down'), { done: true }] });
  m.suspect(['a']);
  await m.tick();
  t.equal(m.size, 1);
  t.match(warned, [/task a/]);
  await m.tick();
  t.equal(m.size, 0);
});

t.test('a tick looks at a bounded number of suspects, the rest wait their turn', async (t) => {
  const { m, asked } = mender({ a: [], b: [], c: [] }, 2);
  m.suspect(['a', 'b', 'c']);
  await m.tick();
  t.strictSame(asked, ['a', 'b']);
  await m.tick();
  t.strictSame(asked, ['a', 'b', 'c', 'a'], 'those looked at go to the back of the line');
});

t.test('ticks never overlap', async (t) => {
  const { m, asked } = mender({ a: [{ done: true }] });
  m.suspect(['a']);
  await Promise.all([m.tick(), m.tick()]);
  t.strictSame(asked, ['a']);
});
