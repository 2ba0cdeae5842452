import t from 'tap';
import {
  isAlive,
  ownTicks,
  parseMachineTicks,
  parseProcStat,
  processTree,
  treeTicks,
} from '../../../../bench/pipeline/procfs.js';

t.test('a stat line whose command holds spaces and parentheses', async (t) => {
  const line =
    '4242 (node (a) b) S 17 4242 4242 0 -1 4194304 100 0 0 0 250 40 7 3 20 0 11 0 123 456 789';
  t.same(parseProcStat(line), { ppid: 17, own: 290, reaped: 10 });
});

t.test('machine ticks: idle and iowait are not busy', async (t) => {
  const text = 'cpu  100 5 50 1000 20 0 3 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n';
  t.same(parseMachineTicks(text), { total: 1178, busy: 158 });
});

t.test('this process, as /proc sees it', async (t) => {
  t.ok(isAlive(process.pid));
  t.ok(processTree(process.pid).includes(process.pid));
  t.ok(ownTicks(process.pid) >= 0);
  t.ok(treeTicks(process.pid) >= ownTicks(process.pid));
  t.notOk(isAlive(2 ** 22 + 1), 'a pid above the kernel maximum is never alive');
});
