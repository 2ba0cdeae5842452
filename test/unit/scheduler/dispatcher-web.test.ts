import t from 'tap';
import { queueItem as item } from '../../helpers/queue-items.js';
import {
  ACCOUNT_WAIT_MS,
  dispatchAll,
  harness,
  node,
  sentIds,
  T0,
} from '../../helpers/dispatcher-harness.js';
import { poolAccount } from '../../helpers/account-pool.js';
import type { ProxyPortInfo } from '../../../services/shared/proxy-ports.js';
import type { CrawlerNode } from '../../../services/shared/contracts/advert.js';

const SH = '310000';
const BJ = '110000';

function port(key: string, regionCode: string): ProxyPortInfo {
  return {
    key,
    port: Number(key.split(':')[1]),
    province: '',
    city: '',
    regionCode: [regionCode],
    outIp: '203.0.113.1',
  };
}

/** A node running chatgpt on the web channel through the given ports. */
function webNode(id: string, capacity: number, ports: ProxyPortInfo[]): CrawlerNode {
  return node(id, capacity, {
    regions: [...new Set(ports.flatMap((p) => p.regionCode))],
    proxyPorts: ports,
  });
}

const webItem = (taskId: string, seq: number, regionCode: string | null, extra = {}) =>
  item(taskId, 1, seq, { platform: 'chatgpt', channel: 'web', regionCode, ...extra });

t.test('api items never ask the accounts service', async (t) => {
  const { d, pool, clock } = harness({ nodes: [node('n1', 50)] });
  for (let seq = 0; seq < 200; seq++) d.queue.add(item('A', 1, seq));
  for (let pass = 0; pass < 5; pass++) {
    await dispatchAll(d);
    for (let seq = pass * 50; seq < pass * 50 + 50; seq++) d.release(`A-${seq}`);
    await d.sweepUnplaceable();
    clock.time += ACCOUNT_WAIT_MS;
  }
  t.equal(d.queue.size, 0, 'every api item was leased');
  t.equal(pool.usableCalls, 0, 'no usable counts read');
  t.equal(pool.claims.length, 0, 'no claims');
});

t.test('a web item goes to the node that serves its account’s proxy port', async (t) => {
  const sh1 = port('127.0.0.1:9001', SH);
  const sh2 = port('127.0.0.1:9002', SH);
  const bj = port('127.0.0.1:9003', BJ);
  const { d, calls, pool } = harness({
    nodes: [
      webNode('roomy', 5, [sh1, bj]),
      webNode('small', 1, [sh2]),
      // Serves the region but does not run chatgpt on the web channel.
      { ...webNode('apionly', 5, [port('127.0.0.1:9004', SH)]), channels: ['api'] },
    ],
    accounts: [poolAccount('pinned', 'chatgpt', { regionCode: SH, proxyKey: sh2.key })],
  });
  d.queue.add(webItem('T', 0, SH));
  t.equal(await dispatchAll(d), 1);
  t.strictSame(
    calls.send.map((s) => [s.node, s.lease.subTaskId, s.lease.account]),
    [['small', 'T-0', { id: 'pinned', proxyKey: sh2.key }]],
    'not the node with the most room: the one with the account’s port',
  );
  const [claim] = pool.claims;
  t.strictSame(claim, {
    platform: 'chatgpt',
    regionCode: SH,
    holder: `T-0 ${calls.send[0]!.lease.token}`,
    ports: [sh1.key, sh2.key],
    avoid: [],
  });
  t.equal(d.busy('small'), 1);
  t.equal(d.busy('roomy'), 0, 'the slot first reserved elsewhere was moved');
  t.equal(pool.heldBy('pinned'), 'T-0');

  t.test('ports of full nodes are not offered', async (t) => {
    d.queue.add(webItem('U', 0, SH));
    pool.accounts.push(poolAccount('fresh', 'chatgpt', { regionCode: SH }));
    t.equal(await dispatchAll(d), 1);
    t.strictSame(pool.claims[1]!.ports, [sh1.key], 'small is full');
    t.equal(pool.accounts[1]!.proxyKey, sh1.key, 'pinned on its first claim');
    t.equal(calls.send[1]!.node, 'roomy');
  });
});

t.test('an item without region claims region by region, each with its own ports', async (t) => {
  const sh = port('127.0.0.1:9001', SH);
  const bj = port('127.0.0.1:9002', BJ);
  const { d, calls, pool } = harness({
    nodes: [webNode('n1', 2, [sh]), webNode('n2', 2, [bj])],
    accounts: [
      poolAccount('bj1', 'chatgpt', { regionCode: BJ, proxyKey: '10.0.0.1:1' }),
      poolAccount('bj2', 'chatgpt', { regionCode: BJ }),
      poolAccount('sh1', 'chatgpt', { regionCode: SH, usable: false }),
    ],
  });
  d.queue.add(webItem('T', 0, null));
  t.equal(await dispatchAll(d), 1);
  t.strictSame(
    pool.claims.map((c) => [c.regionCode, c.ports]),
    [[BJ, [bj.key]]],
  );
  t.strictSame(
    calls.send.map((s) => [s.node, s.lease.account]),
    [['n2', { id: 'bj2', proxyKey: bj.key }]],
  );
});

t.test('no usable account: the item waits, then fails naming platform and region', async (t) => {
  const { d, clock, calls, pool } = harness({
    nodes: [webNode('n1', 2, [port('127.0.0.1:9001', SH)])],
    accounts: [poolAccount('broken', 'chatgpt', { regionCode: SH, usable: false })],
  });
  d.queue.add(webItem('T', 0, SH));
  d.queue.add(webItem('T', 1, null));
  d.queue.add(item('T', 1, 2, { platform: 'claude' }));
  d.queue.add(item('T', 1, 3, { platform: 'chatgpt', channel: 'api' }));
  t.equal(await dispatchAll(d), 2, 'the api items behind it are not held up');
  t.strictSame(sentIds(calls).sort(), ['T-2', 'T-3']);
  t.equal(pool.claims.length, 0, 'no claim while none is usable');
  clock.time = T0 + ACCOUNT_WAIT_MS - 1;
  await dispatchAll(d);
  t.equal(await d.sweepUnplaceable(), 0);
  clock.time = T0 + ACCOUNT_WAIT_MS;
  t.equal(await d.sweepUnplaceable(), 2);
  t.strictSame(
    calls.failPending.map((f) => [f.item.id, f.message]),
    [
      ['T-0', 'no usable chatgpt web account in region 310000 (waited 30 s)'],
      ['T-1', 'no usable chatgpt web account in any region (waited 30 s)'],
    ],
  );
  t.equal(d.queue.size, 0);
});

t.test('the failure says what the accounts service knows about the accounts', async (t) => {
  const asked: (string | null)[][] = [];
  const { d, clock, calls } = harness({
    nodes: [webNode('n1', 2, [port('127.0.0.1:9001', SH)])],
    accounts: [],
    describeAccounts: async (platform, regionCode) => {
      asked.push([platform, regionCode]);
      return '2 accounts: 1 needs_human, 1 cooling until 18:40';
    },
  });
  d.queue.add(webItem('T', 0, SH));
  await dispatchAll(d);
  clock.time = T0 + ACCOUNT_WAIT_MS;
  t.equal(await d.sweepUnplaceable(), 1);
  t.equal(
    calls.failPending[0]!.message,
    'no usable chatgpt web account in region 310000 (2 accounts: 1 needs_human, 1 cooling until 18:40)',
  );
  t.strictSame(asked, [['chatgpt', SH]]);
});

t.test('an item whose accounts are busy running other items does not fail', async (t) => {
  const { d, clock, calls, pool } = harness({
    nodes: [webNode('n1', 3, [port('127.0.0.1:9001', SH)])],
    accounts: [poolAccount('only', 'chatgpt', { regionCode: SH })],
  });
  for (let seq = 0; seq < 3; seq++) d.queue.add(webItem('T', seq, SH));
  t.equal(await dispatchAll(d), 1);
  t.equal(pool.claims.length, 1, 'one usable account: one claim in the pass');
  // T-0 runs far longer than the wait.
  for (let s = 1; s <= 4; s++) {
    clock.time = T0 + s * ACCOUNT_WAIT_MS;
    t.equal(await dispatchAll(d), 0);
    t.equal(await d.sweepUnplaceable(), 0, 'still waiting for the busy account');
  }
  d.release('T-0');
  pool.release('only', pool.accounts[0]!.holder!);
  clock.time += 1_000;
  t.equal(await dispatchAll(d), 1);
  t.strictSame(sentIds(calls), ['T-0', 'T-1']);
  t.equal(calls.failPending.length, 0);
});

t.test('a retry avoids the account of its last attempt', async (t) => {
  const { d, calls, pool, clock } = harness({
    accounts: [poolAccount('a1', 'chatgpt'), poolAccount('a2', 'chatgpt')],
  });
  d.queue.add(webItem('T', 0, null, { lastAccount: 'a1', attempts: 1 }));
  t.equal(await dispatchAll(d), 1);
  t.strictSame(pool.claims[0]!.avoid, ['a1']);
  t.equal(calls.send[0]!.lease.account!.id, 'a2');

  t.test('and waits when that account is the only one', async (t) => {
    d.release('T-0');
    pool.release('a2', pool.accounts[1]!.holder!);
    pool.accounts.splice(1, 1);
    d.queue.add(webItem('U', 0, null, { lastAccount: 'a1', attempts: 1 }));
    const start = clock.time;
    t.equal(await dispatchAll(d), 0);
    t.strictSame(pool.claims.at(-1)!.avoid, ['a1']);
    t.equal(pool.heldBy('a1'), null, 'not claimed');
    clock.time = start + ACCOUNT_WAIT_MS;
    t.equal(await d.sweepUnplaceable(), 1);
    t.equal(calls.failPending[0]!.item.id, 'U-0');
  });
});

t.test('an account whose item does not reach a node is given back', async (t) => {
  const cases = {
    refused: { refuse: { 'T-0': { reason: 'at capacity', cannotRun: false } } },
    unreachable: { sendThrows: { n1: 'timeout' } },
    'claimed by another': { claimFalse: ['T-0'] },
    'claim failed': { claimThrows: ['T-0'] },
  };
  for (const [name, o] of Object.entries(cases)) {
    t.test(name, async (t) => {
      const { d, calls, pool } = harness(o);
      d.queue.add(webItem('T', 0, null));
      await dispatchAll(d);
      t.equal(pool.claims.length, 1);
      t.strictSame(pool.releases, [{ id: 'chatgpt-acc1', holder: pool.claims[0]!.holder }]);
      t.equal(pool.heldBy('chatgpt-acc1'), null);
      t.equal(d.busy('n1'), 0);
      t.equal(calls.failPending.length, 0);
    });
  }
});

t.test('the accounts service down: web work waits, api work runs', async (t) => {
  const { d, calls, clock, state, pool } = harness({ accountsDown: true });
  d.queue.add(webItem('T', 0, null));
  d.queue.add(item('A', 1, 0));
  t.equal(await dispatchAll(d), 1);
  t.strictSame(sentIds(calls), ['A-0']);
  clock.time = T0 + 10 * ACCOUNT_WAIT_MS;
  await dispatchAll(d);
  t.equal(await d.sweepUnplaceable(), 0, 'not an account shortage');
  state.accountsDown = false;
  t.equal(await dispatchAll(d), 1);
  t.equal(pool.heldBy('chatgpt-acc1'), 'T-0');
});

t.test('no account ever runs two sub tasks at once', async (t) => {
  const sh = port('127.0.0.1:9001', SH);
  const bj = port('127.0.0.1:9002', BJ);
  const { d, calls, pool, clock } = harness({
    nodes: [webNode('n1', 3, [sh]), webNode('n2', 3, [bj])],
    accounts: [
      poolAccount('sh1', 'chatgpt', { regionCode: SH }),
      poolAccount('sh2', 'chatgpt', { regionCode: SH }),
      poolAccount('bj1', 'chatgpt', { regionCode: BJ }),
      poolAccount('any', 'chatgpt'),
    ],
  });
  const regions = [SH, BJ, null];
  for (let seq = 0; seq < 30; seq++) d.queue.add(webItem('T', seq, regions[seq % 3]!));
  const running = new Map<string, { subTaskId: string; holder: string }>();
  let most = 0;
  for (let pass = 0; pass < 200 && d.queue.size + running.size > 0; pass++) {
    const before = calls.send.length;
    await dispatchAll(d);
    for (const { lease, node } of calls.send.slice(before)) {
      const account = lease.account!;
      t.notOk(running.has(account.id), `${account.id} is free when ${lease.subTaskId} gets it`);
      if (account.proxyKey !== null)
        t.equal(node, account.proxyKey === sh.key ? 'n1' : 'n2', 'on its port’s node');
      running.set(account.id, {
        subTaskId: lease.subTaskId,
        holder: `${lease.subTaskId} ${lease.token}`,
      });
    }
    most = Math.max(most, running.size);
    // Every other pass, the oldest running sub task finishes and its node releases the account.
    if (pass % 2 === 1) {
      const [id, r] = [...running][0] ?? [];
      if (id && r) {
        running.delete(id);
        d.release(r.subTaskId);
        pool.release(id, r.holder);
      }
    }
    clock.time += 1_000;
    await d.sweepUnplaceable();
  }
  t.equal(calls.send.length, 30, 'every item ran once');
  t.equal(calls.failPending.length, 0, 'none waited out: accounts kept coming back');
  t.equal(most, 4, 'all four accounts were used at once');
  t.equal(new Set(calls.send.map((s) => s.lease.subTaskId)).size, 30);
});

t.test('an account counted usable but pinned to a port that is down is no account', async (t) => {
  const up = port('127.0.0.1:9001', SH);
  const { d, clock, calls, pool } = harness({
    nodes: [webNode('n1', 2, [up])],
    accounts: [poolAccount('stranded', 'chatgpt', { regionCode: SH, proxyKey: '127.0.0.1:9009' })],
  });
  d.queue.add(webItem('T', 0, SH));
  for (let s = 0; s < ACCOUNT_WAIT_MS; s += 1_000) {
    clock.time = T0 + s;
    t.equal(await d.dispatch(), 1, 'picked on the count');
    t.equal(await d.settled(), 0, 'but its claim finds none');
    t.equal(await d.sweepUnplaceable(), 0);
  }
  t.equal(pool.claims.length, ACCOUNT_WAIT_MS / 1_000);
  t.ok(pool.claims.every((c) => c.ports.length === 1 && c.ports[0] === up.key));
  t.equal(pool.heldBy('stranded'), null, 'never claimed');
  clock.time = T0 + ACCOUNT_WAIT_MS;
  t.equal(await d.sweepUnplaceable(), 1);
  t.match(calls.failPending[0]!.message, /^no usable chatgpt web account in region 310000/);
});

t.test('usable accounts but no room: the item waits for room as long as it takes', async (t) => {
  const { d, clock, calls } = harness({ nodes: [node('n1', 1)] });
  d.queue.add(item('A', 1, 0));
  t.equal(await dispatchAll(d), 1, 'an api item fills the node');
  // The web item found no account once, before any was usable.
  d.queue.add(webItem('T', 0, null, { accountWaitSince: T0 }));
  for (let s = 1; s <= 4; s++) {
    clock.time = T0 + s * ACCOUNT_WAIT_MS;
    t.equal(await dispatchAll(d), 0);
    t.equal(await d.sweepUnplaceable(), 0);
  }
  d.release('A-0');
  t.equal(await dispatchAll(d), 1);
  t.equal(calls.failPending.length, 0);
});

t.test('an item that avoids an account leaves it to the next item of the pass', async (t) => {
  const up = port('127.0.0.1:9001', SH);
  const { d, calls } = harness({
    nodes: [webNode('n1', 3, [up])],
    accounts: [
      poolAccount('live', 'chatgpt', { regionCode: SH, proxyKey: up.key }),
      poolAccount('stranded', 'chatgpt', { regionCode: SH, proxyKey: '127.0.0.1:9009' }),
    ],
  });
  d.queue.add(webItem('T', 0, null, { lastAccount: 'live', attempts: 1 }));
  d.queue.add(webItem('T', 1, null));
  t.equal(await dispatchAll(d), 1);
  t.strictSame(
    calls.send.map((s) => [s.lease.subTaskId, s.lease.account?.id]),
    [['T-1', 'live']],
  );
});

t.test('a simulated site’s web items run without accounts', async (t) => {
  const { d, calls, pool, clock } = harness({
    simulated: ['sandbox'],
    accounts: [],
  });
  d.queue.add(item('S', 1, 0, { channel: 'web' }));
  t.equal(await dispatchAll(d), 1);
  t.equal(calls.send[0]!.lease.channel, 'web');
  t.equal(calls.send[0]!.lease.account, undefined);
  t.equal(pool.usableCalls + pool.claims.length, 0, 'the accounts service is not asked');
  d.queue.add(item('S', 1, 1, { channel: 'web' }));
  clock.time = T0 + 10 * ACCOUNT_WAIT_MS;
  t.equal(await d.sweepUnplaceable(), 0);
});
