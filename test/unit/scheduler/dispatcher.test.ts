import t from 'tap';
import { Errors } from 'moleculer';
import { queueItem as item } from '../../helpers/queue-items.js';
import { refusalsOf } from '../../../services/scheduler/dispatcher.js';
import {
  dispatchAll,
  harness,
  LEASE_MS,
  node,
  REGION_WAIT_MS,
  sentIds,
  T0,
} from '../../helpers/dispatcher-harness.js';

t.test('dispatch leases up to node capacity', async (t) => {
  const { d, calls } = harness({ nodes: [node('n1', 2)] });
  for (let seq = 0; seq < 5; seq++) d.queue.add(item('T', 1, seq));
  t.equal(await dispatchAll(d), 2);
  t.strictSame(sentIds(calls), ['T-0', 'T-1']);
  t.strictSame(
    calls.send.map((s) => s.node),
    ['n1', 'n1'],
  );
  t.equal(d.inFlightCount, 2);
  t.equal(d.busy('n1'), 2);
  t.equal(d.platformLoad('sandbox'), 2);
  t.equal(d.isInFlight('T-0'), true);
  t.equal(d.isInFlight('T-2'), false);
  t.equal(d.queue.size, 3);
  t.equal(await dispatchAll(d), 0, 'node full');
  t.equal(calls.claim.length, 2);
  t.equal(d.queue.size, 3);
});

t.test('dispatch spreads over nodes by free slots', async (t) => {
  const { d, calls } = harness({ nodes: [node('n1', 2), node('n2', 3)] });
  for (let seq = 0; seq < 10; seq++) d.queue.add(item('T', 1, seq));
  t.equal(await dispatchAll(d), 5);
  t.strictSame(
    Object.fromEntries(calls.send.map((s) => [s.lease.subTaskId, s.node])),
    { 'T-0': 'n2', 'T-1': 'n1', 'T-2': 'n2', 'T-3': 'n1', 'T-4': 'n2' },
    'in turn, the node with the most free slots first',
  );
  t.strictSame(
    calls.sends,
    [
      { node: 'n2', ids: ['T-0', 'T-2', 'T-4'] },
      { node: 'n1', ids: ['T-1', 'T-3'] },
    ],
    'one accept call per node, in fair order',
  );
  t.equal(new Set(calls.claim.map((c) => c.token)).size, 2, 'one token per node batch');
  t.equal(d.busy('n1'), 2);
  t.equal(d.busy('n2'), 3);
  t.equal(d.queue.size, 5);
});

t.test('dispatch respects the platform cap', async (t) => {
  const { d, calls } = harness({
    nodes: [node('n1', 10), node('n2', 10)],
    caps: { chatgpt: 2, claude: 1 },
  });
  for (let seq = 0; seq < 4; seq++) d.queue.add(item('C', 1, seq, { platform: 'chatgpt' }));
  for (let seq = 0; seq < 3; seq++) d.queue.add(item('A', 2, seq, { platform: 'claude' }));
  for (let seq = 0; seq < 2; seq++) d.queue.add(item('S', 3, seq, { platform: 'sandbox' }));
  t.equal(await dispatchAll(d), 5);
  t.strictSame(sentIds(calls).sort(), ['A-0', 'C-0', 'C-1', 'S-0', 'S-1']);
  t.equal(d.platformLoad('chatgpt'), 2);
  t.equal(d.platformLoad('claude'), 1);
  t.equal(d.platformLoad('sandbox'), 2);
  t.equal(d.platformLoad('gemini'), 0);
  t.equal(d.queue.size, 4);
  t.equal(await dispatchAll(d), 0, 'capped platforms wait');
  d.release('C-0');
  t.equal(await dispatchAll(d), 1);
  t.strictSame(sentIds(calls).slice(5), ['C-2']);
});

t.test('no nodes: nothing is taken from the queue', async (t) => {
  const { d, calls } = harness({ nodes: [] });
  d.queue.add(item('T', 1, 0));
  t.equal(await dispatchAll(d), 0);
  t.equal(d.queue.size, 1);
  t.equal(calls.claim.length, 0);
});

t.test('items not due stay queued until the clock reaches notBefore', async (t) => {
  const { d, clock, calls } = harness();
  d.queue.add(item('T', 1, 0, { notBefore: T0 + 5000 }));
  t.equal(await dispatchAll(d), 0);
  t.equal(d.queue.size, 1);
  clock.time = T0 + 5000;
  t.equal(await dispatchAll(d), 1);
  t.strictSame(sentIds(calls), ['T-0']);
});

t.test('items whose region no node serves are skipped, not lost', async (t) => {
  const { d, calls } = harness({ nodes: [node('n1', 2, { regions: ['110000'] })] });
  d.queue.add(item('T', 1, 0, { regionCode: '440000' }));
  d.queue.add(item('T', 1, 1, { regionCode: '110000' }));
  t.equal(await dispatchAll(d), 1);
  t.strictSame(sentIds(calls), ['T-1']);
  t.equal(d.queue.has('T-0'), true);
});

t.test('a retry avoids the node of its last attempt when another has room', async (t) => {
  const { d, calls } = harness({ nodes: [node('n1', 2), node('n2', 1)] });
  d.queue.add(item('T', 1, 0, { lastNode: 'n1', attempts: 1 }));
  t.equal(await dispatchAll(d), 1);
  t.equal(calls.send[0]?.node, 'n2');
});

t.test('lease message fields', async (t) => {
  const { d, calls } = harness({ nodes: [node('n1', 3)] });
  d.queue.add(
    item('T', 7, 3, {
      platform: 'chatgpt',
      channel: 'web',
      mode: 'search',
      prompt: 'best running shoes',
      screenshot: 2,
      keywords: ['Acme|阿克米'],
      regionCode: null,
      lastProxy: '127.0.0.1:8001',
      attempts: 2,
    }),
  );
  d.queue.add(item('U', 8, 0));
  d.queue.add(item('U', 8, 1));
  t.equal(await dispatchAll(d), 3);
  const claim = calls.claim.find((c) => c.id === 'T-3');
  const sent = calls.send.find((s) => s.lease.subTaskId === 'T-3');
  t.ok(claim && sent);
  t.match(sent!.lease.token, /^[0-9a-f]{32}$/);
  t.strictSame(sent!.lease, {
    subTaskId: 'T-3',
    taskId: 'T',
    token: claim!.token,
    expiresAt: T0 + LEASE_MS,
    leaseMs: LEASE_MS,
    platform: 'chatgpt',
    channel: 'web',
    mode: 'search',
    prompt: 'best running shoes',
    screenshot: 2,
    regionCode: null,
    avoidProxy: '127.0.0.1:8001',
    attempt: 3,
    keywords: ['Acme|阿克米'],
    account: { id: 'chatgpt-acc1', proxyKey: null },
  });
  t.strictSame(claim, {
    id: 'T-3',
    node: 'n1',
    token: sent!.lease.token,
    expiresAt: T0 + LEASE_MS,
  });
  const [u0, u1] = ['U-0', 'U-1'].map((id) => calls.send.find((s) => s.lease.subTaskId === id));
  t.equal(u0?.lease.attempt, 1, 'first attempt');
  t.equal(u0?.lease.channel, 'api');
  t.equal(u0?.lease.account, undefined, 'an api lease has no account');
  t.equal(u1?.lease.token, u0?.lease.token, 'one token for the api batch of a node');
});

t.test("the lease's channel is the sub task's own", async (t) => {
  const { d, calls } = harness({
    nodes: [
      node('api-node', 2, { channels: ['api'], platforms: ['sandbox'] }),
      node('web-node', 2, { channels: ['web'], platforms: ['sandbox'] }),
    ],
  });
  d.queue.add(item('T', 1, 0, { channel: 'web' }));
  d.queue.add(item('T', 1, 1, { channel: 'api' }));
  t.equal(await dispatchAll(d), 2);
  t.strictSame(calls.send.map((s) => [s.lease.subTaskId, s.lease.channel, s.node]).sort(), [
    ['T-0', 'web', 'web-node'],
    ['T-1', 'api', 'api-node'],
  ]);
});

t.test('a platform with no room on one channel still places its work on the other', async (t) => {
  const { d, calls } = harness({
    nodes: [node('web-node', 1, { channels: ['web'], platforms: ['sandbox'] })],
  });
  d.queue.add(item('T', 1, 0, { channel: 'api' }));
  d.queue.add(item('T', 1, 1, { channel: 'web' }));
  t.equal(await dispatchAll(d), 1);
  t.strictSame(sentIds(calls), ['T-1']);
  t.equal(d.queue.size, 1, 'the API item waits for a node that runs it');
});

t.test('claims are all made before any lease is sent', async (t) => {
  const { d, log } = harness({ nodes: [node('n1', 3)] });
  for (let seq = 0; seq < 3; seq++) d.queue.add(item('T', 1, seq));
  t.equal(await dispatchAll(d), 3);
  t.strictSame(log.slice(0, 3), ['claim T-0', 'claim T-1', 'claim T-2']);
  t.strictSame(log.slice(3).sort(), ['send T-0', 'send T-1', 'send T-2']);
});

t.test('a failed claim releases the slot and sends nothing', async (t) => {
  const { d, calls } = harness({ nodes: [node('n1', 2)], claimFalse: ['T-0'] });
  for (let seq = 0; seq < 4; seq++) d.queue.add(item('T', 1, seq));
  t.equal(await dispatchAll(d), 1);
  t.strictSame(
    calls.claim.map((c) => c.id),
    ['T-0', 'T-1'],
  );
  t.strictSame(sentIds(calls), ['T-1']);
  t.equal(calls.giveBack.length, 0);
  t.equal(d.isInFlight('T-0'), false);
  t.equal(d.inFlightCount, 1);
  t.equal(d.busy('n1'), 1);
  t.equal(d.platformLoad('sandbox'), 1);
  t.equal(d.queue.has('T-0'), false, 'no longer pending: dropped from the queue');
  t.equal(await dispatchAll(d), 1, 'the freed slot is used by the next pass');
  t.strictSame(sentIds(calls), ['T-1', 'T-2']);
});

t.test('a claim that throws fails its whole batch and frees its slots', async (t) => {
  const { d, calls } = harness({
    nodes: [node('n1', 2), node('n2', 1)],
    claimThrows: ['T-0'],
  });
  for (let seq = 0; seq < 3; seq++) d.queue.add(item('T', 1, seq));
  t.equal(await dispatchAll(d), 1, "only n2's batch was sent");
  t.strictSame(
    calls.claim.map((c) => [c.id, c.node]),
    [
      ['T-0', 'n1'],
      ['T-1', 'n1'],
      ['T-2', 'n2'],
    ],
  );
  t.strictSame(sentIds(calls), ['T-2']);
  t.equal(d.isInFlight('T-0'), false);
  t.equal(d.isInFlight('T-1'), false);
  t.equal(d.busy('n1'), 0);
  t.equal(d.busy('n2'), 1);
  t.equal(calls.giveBack.length, 0, 'nothing was claimed, so nothing to give back');
});

t.test('a lease the node refuses is given back; the rest of its batch runs', async (t) => {
  const { d, calls } = harness({
    nodes: [node('n1', 3)],
    refuse: { 'T-1': { reason: 'at capacity (3 running, 0 waiting)', cannotRun: false } },
  });
  for (let seq = 0; seq < 3; seq++) d.queue.add(item('T', 1, seq));
  t.equal(await dispatchAll(d), 2);
  t.strictSame(calls.sends, [{ node: 'n1', ids: ['T-0', 'T-1', 'T-2'] }]);
  t.strictSame(
    calls.giveBack.map((g) => [g.lease.subTaskId, g.message]),
    [['T-1', 'crawler node n1 did not take the work: at capacity (3 running, 0 waiting)']],
  );
  t.equal(d.isInFlight('T-1'), false);
  t.equal(d.busy('n1'), 2);
  d.queue.add(item('U', 1, 0));
  t.equal(await dispatchAll(d), 1, 'a passing refusal does not keep the node from the pair');
});

t.test(
  'a node that cannot run a pair is not offered it again; the work fails after the wait',
  async (t) => {
    const { d, clock, calls } = harness({
      nodes: [node('n1', 3)],
      refuse: { 'T-0': { reason: 'no web driver for sandbox on this node', cannotRun: true } },
    });
    d.queue.add(item('T', 1, 0, { channel: 'web' }));
    t.equal(await dispatchAll(d), 0);
    t.equal(calls.giveBack.length, 1);
    d.queue.add(item('T', 1, 0, { channel: 'web' }));
    t.equal(await dispatchAll(d), 0, 'not sent to the node that refused the pair');
    t.equal(calls.sends.length, 1);
    t.equal(await d.sweepUnplaceable(), 0);
    clock.time = T0 + REGION_WAIT_MS - 1;
    t.equal(await d.sweepUnplaceable(), 0);
    clock.time = T0 + REGION_WAIT_MS;
    t.equal(await d.sweepUnplaceable(), 1);
    t.strictSame(
      calls.failPending[0]!.message,
      'no live crawler node runs sandbox on the web channel (waited 60 s)',
    );
    t.equal(d.queue.size, 0);
  },
);

t.test('nodes that advertise pairs are offered only those pairs', async (t) => {
  const { d, clock, calls } = harness({
    nodes: [node('n1', 3, { pairs: ['sandbox:api', 'chatgpt:api', 'claude:api'] })],
  });
  d.queue.add(item('A', 1, 0, { platform: 'chatgpt', channel: 'web' }));
  d.queue.add(item('B', 1, 0, { platform: 'claude' }));
  t.equal(await dispatchAll(d), 1);
  t.strictSame(sentIds(calls), ['B-0']);
  await d.sweepUnplaceable();
  clock.time = T0 + REGION_WAIT_MS;
  t.equal(await d.sweepUnplaceable(), 1);
  t.equal(calls.failPending[0]!.item.id, 'A-0');
  t.equal(
    calls.failPending[0]!.message,
    'no live crawler node runs chatgpt on the web channel (waited 60 s)',
  );
});

t.test('a send that throws gives the lease back and releases the slot', async (t) => {
  const { d, calls } = harness({
    nodes: [node('n1', 1), node('n2', 1)],
    sendThrows: { n1: 'at capacity (1)' },
  });
  d.queue.add(item('T', 1, 0));
  d.queue.add(item('T', 1, 1));
  t.equal(await dispatchAll(d), 1);
  t.strictSame(
    calls.send.map((s) => [s.node, s.lease.subTaskId]),
    [
      ['n1', 'T-0'],
      ['n2', 'T-1'],
    ],
  );
  t.equal(calls.giveBack.length, 1);
  t.equal(calls.giveBack[0]!.lease, calls.send[0]!.lease, 'the lease that was sent');
  t.equal(calls.giveBack[0]!.message, 'crawler node n1 did not take the work: at capacity (1)');
  t.equal(d.isInFlight('T-0'), false);
  t.equal(d.isInFlight('T-1'), true);
  t.equal(d.busy('n1'), 0);
  t.equal(d.busy('n2'), 1);
  t.equal(d.platformLoad('sandbox'), 1);
  t.equal(d.inFlightCount, 1);
});

t.test('a send that went out unanswered leaves the leases with the node', async (t) => {
  // The node timed out, or left while the call was under way: it may have
  // taken the leases and asked the platform, so those attempts stay spent.
  for (const err of [
    new Errors.RequestTimeoutError({ action: 'crawler.accept', nodeID: 'n1' }),
    new Errors.RequestRejectedError({ action: 'crawler.accept', nodeID: 'n1' }),
  ]) {
    const { d, calls } = harness({ nodes: [node('n1', 2)], sendThrows: { n1: err } });
    d.queue.add(item('T', 1, 0));
    d.queue.add(item('T', 1, 1));
    t.equal(await dispatchAll(d), 2, err.type);
    t.strictSame(calls.giveBack, [], `${err.type}: nothing given back`);
    t.equal(d.isInFlight('T-0'), true);
    t.equal(d.busy('n1'), 2);
  }
});

t.test('release frees capacity for the next dispatch', async (t) => {
  const { d, calls } = harness({ nodes: [node('n1', 1)] });
  for (let seq = 0; seq < 3; seq++) d.queue.add(item('T', 1, seq));
  t.equal(await dispatchAll(d), 1);
  t.equal(await dispatchAll(d), 0);
  d.release('T-0');
  t.equal(d.busy('n1'), 0);
  t.equal(d.platformLoad('sandbox'), 0);
  t.equal(d.inFlightCount, 0);
  t.equal(await dispatchAll(d), 1);
  t.strictSame(sentIds(calls), ['T-0', 'T-1']);
  d.release('T-1');
  d.release('T-1');
  d.release('unknown');
  t.equal(d.busy('n1'), 0, 'releasing twice or an unknown id is a no-op');
  t.equal(d.inFlightCount, 0);
});

t.test('resetInFlight rebuilds the in-flight view', async (t) => {
  const { d, calls, clock } = harness({
    nodes: [node('n1', 2), node('n2', 2)],
    caps: { chatgpt: 2 },
  });
  d.resetInFlight([
    { id: 'x', node: 'n1', platform: 'chatgpt' },
    { id: 'y', node: 'n1', platform: 'sandbox' },
    { id: 'z', node: 'n2', platform: 'chatgpt' },
    { id: 'z', node: 'n2', platform: 'chatgpt' },
  ]);
  t.equal(d.inFlightCount, 3, 'duplicates count once');
  t.equal(d.busy('n1'), 2);
  t.equal(d.busy('n2'), 1);
  t.equal(d.platformLoad('chatgpt'), 2);
  t.equal(d.platformLoad('sandbox'), 1);
  t.equal(d.isInFlight('x'), true);

  d.queue.add(item('C', 1, 0, { platform: 'chatgpt' }));
  d.queue.add(item('S', 2, 0));
  d.queue.add(item('S', 2, 1));
  t.equal(await dispatchAll(d), 1, 'chatgpt at cap, one free slot on n2');
  t.strictSame(
    calls.send.map((s) => [s.node, s.lease.subTaskId]),
    [['n2', 'S-0']],
  );

  clock.time += 6_000; // past the window in which recent claims outrank a snapshot
  d.resetInFlight([{ id: 'x', node: 'n1', platform: 'chatgpt' }]);
  t.equal(d.inFlightCount, 1, 'previous state is cleared');
  t.equal(d.isInFlight('S-0'), false);
  t.equal(d.busy('n1'), 1);
  t.equal(d.busy('n2'), 0);
  t.equal(d.platformLoad('chatgpt'), 1);
  t.equal(d.platformLoad('sandbox'), 0);

  d.resetInFlight([]);
  t.equal(d.inFlightCount, 0);
  t.equal(d.busy('n1'), 0);
  t.equal(await dispatchAll(d), 2);
});

t.test('release after resetInFlight frees the stored lease', async (t) => {
  const { d } = harness({ nodes: [node('n1', 1)] });
  d.resetInFlight([{ id: 'old', node: 'n1', platform: 'sandbox' }]);
  d.queue.add(item('T', 1, 0));
  t.equal(await dispatchAll(d), 0);
  d.release('old');
  t.equal(await dispatchAll(d), 1);
});

// The queue can hold an id that is already in flight (e.g. the scheduler's
// requeue read the sub task as pending just before a dispatch claimed it). The
// second claim then fails, as it should, but the failure releases the slot of
// the lease that is really running.
t.test('a failed claim of an item already in flight keeps that lease counted', async (t) => {
  const { d, calls } = harness({ nodes: [node('n1', 2)], claimFalse: ['T-0'] });
  d.resetInFlight([{ id: 'T-0', node: 'n1', platform: 'sandbox' }]);
  d.queue.add(item('T', 1, 0));
  t.equal(await dispatchAll(d), 0);
  t.equal(calls.send.length, 0);
  t.equal(d.isInFlight('T-0'), true, 'the running lease is still in flight');
  t.equal(d.busy('n1'), 1, 'and still holds its slot on n1');
  t.equal(d.platformLoad('sandbox'), 1);
});

t.test('sweepUnplaceable', async (t) => {
  t.test('fails items of a region no node serves only after regionWaitMs', async (t) => {
    const { d, clock, calls } = harness({ nodes: [node('n1', 2, { regions: ['110000'] })] });
    d.queue.add(item('T', 1, 0, { regionCode: '440000' }));
    d.queue.add(item('T', 1, 1, { regionCode: '110000' }));
    d.queue.add(item('T', 1, 2));
    t.equal(await d.sweepUnplaceable(), 0);
    const waiting = [...d.queue.items()].find((i) => i.id === 'T-0')!;
    t.equal(waiting.waitingSince, T0, 'waiting since the first sweep');
    t.equal(
      [...d.queue.items()].find((i) => i.id === 'T-1')!.waitingSince,
      undefined,
      'served region',
    );
    t.equal([...d.queue.items()].find((i) => i.id === 'T-2')!.waitingSince, undefined, 'no region');

    clock.time = T0 + REGION_WAIT_MS - 1;
    t.equal(await d.sweepUnplaceable(), 0);
    t.equal(waiting.waitingSince, T0, 'not reset by later sweeps');
    t.equal(calls.failPending.length, 0);

    clock.time = T0 + REGION_WAIT_MS;
    t.equal(await d.sweepUnplaceable(), 1);
    t.equal(calls.failPending.length, 1);
    t.equal(calls.failPending[0]!.item.id, 'T-0');
    t.equal(
      calls.failPending[0]!.message,
      'no crawler node with an active proxy serves region 440000 (waited 60 s)',
    );
    t.equal(d.queue.has('T-0'), false);
    t.equal(d.queue.size, 2);
    t.equal(await d.sweepUnplaceable(), 0);
  });

  t.test('no nodes at all: regioned items wait, others are untouched', async (t) => {
    const { d, clock, calls } = harness({ nodes: [] });
    d.queue.add(item('T', 1, 0, { regionCode: '110000' }));
    d.queue.add(item('T', 1, 1));
    await d.sweepUnplaceable();
    clock.time = T0 + REGION_WAIT_MS;
    t.equal(await d.sweepUnplaceable(), 1);
    t.strictSame(
      calls.failPending.map((f) => f.item.id),
      ['T-0'],
    );
    t.equal(d.queue.has('T-1'), true);
  });

  t.test('items not yet due do not start waiting', async (t) => {
    const { d, clock, calls } = harness({ nodes: [] });
    d.queue.add(item('T', 1, 0, { regionCode: '440000', notBefore: T0 + 10_000 }));
    t.equal(await d.sweepUnplaceable(), 0);
    t.equal([...d.queue.items()][0]!.waitingSince, undefined);
    clock.time = T0 + 10_000;
    t.equal(await d.sweepUnplaceable(), 0);
    t.equal([...d.queue.items()][0]!.waitingSince, T0 + 10_000, 'waits from when it became due');
    clock.time = T0 + 10_000 + REGION_WAIT_MS - 1;
    t.equal(await d.sweepUnplaceable(), 0);
    clock.time = T0 + 10_000 + REGION_WAIT_MS;
    t.equal(await d.sweepUnplaceable(), 1);
    t.equal(calls.failPending.length, 1);
  });

  t.test('a node that appears clears waitingSince', async (t) => {
    const { d, clock, calls, state } = harness({ nodes: [] });
    d.queue.add(item('T', 1, 0, { regionCode: '440000' }));
    const waiting = [...d.queue.items()][0]!;
    await d.sweepUnplaceable();
    t.equal(waiting.waitingSince, T0);

    clock.time = T0 + REGION_WAIT_MS / 2;
    state.nodes = [node('gz', 1, { regions: ['440000'] })];
    t.equal(await d.sweepUnplaceable(), 0);
    t.equal(waiting.waitingSince, undefined);
    t.equal('waitingSince' in waiting, false);

    // The node goes away again: the wait starts over.
    clock.time = T0 + REGION_WAIT_MS;
    state.nodes = [];
    t.equal(await d.sweepUnplaceable(), 0);
    t.equal(waiting.waitingSince, T0 + REGION_WAIT_MS);
    clock.time = T0 + 2 * REGION_WAIT_MS - 1;
    t.equal(await d.sweepUnplaceable(), 0);
    clock.time = T0 + 2 * REGION_WAIT_MS;
    t.equal(await d.sweepUnplaceable(), 1);
    t.equal(calls.failPending.length, 1);
  });

  t.test('a full node still serves its region', async (t) => {
    const { d, clock, calls } = harness({ nodes: [node('gz', 1, { regions: ['440000'] })] });
    d.resetInFlight([{ id: 'busy', node: 'gz', platform: 'sandbox' }]);
    d.queue.add(item('T', 1, 0, { regionCode: '440000' }));
    await d.sweepUnplaceable();
    clock.time = T0 + 10 * REGION_WAIT_MS;
    t.equal(await d.sweepUnplaceable(), 0);
    t.equal(calls.failPending.length, 0);
  });

  t.test('the node must also have the platform and its channel', async (t) => {
    const { d, clock, calls } = harness({
      nodes: [node('gz', 1, { regions: ['440000'], channels: ['web'], platforms: ['claude'] })],
    });
    d.queue.add(item('A', 1, 0, { regionCode: '440000', platform: 'claude', channel: 'web' }));
    d.queue.add(item('B', 1, 0, { regionCode: '440000', platform: 'chatgpt' }));
    d.queue.add(item('C', 1, 0, { regionCode: '440000', platform: 'sandbox' }));
    await d.sweepUnplaceable();
    clock.time = T0 + REGION_WAIT_MS;
    t.equal(await d.sweepUnplaceable(), 2);
    t.strictSame(calls.failPending.map((f) => f.item.id).sort(), ['B-0', 'C-0']);
    t.equal(d.queue.has('A-0'), true);
  });
});

t.test('a snapshot older than the latest claims and releases does not undo them', async (t) => {
  const { d, clock } = harness({ nodes: [node('n1', 2)] });
  d.queue.add(item('T', 1, 0));
  d.queue.add(item('T', 1, 1));
  t.equal(await dispatchAll(d), 2);
  d.release('T-1');
  // A snapshot read before T-0 was claimed and while T-1 still ran.
  d.resetInFlight([{ id: 'T-1', node: 'n1', platform: 'sandbox' }]);
  t.equal(d.isInFlight('T-0'), true, 'the fresh claim is kept');
  t.equal(d.isInFlight('T-1'), false, 'the fresh release is not undone');
  t.equal(d.busy('n1'), 1);
  clock.time += 6_000;
  d.resetInFlight([]);
  t.equal(d.inFlightCount, 0, 'later snapshots win again');
});

t.test("refusalsOf reads a node's answer per lease", async (t) => {
  t.strictSame(
    refusalsOf(
      {
        results: [
          { accepted: true },
          { accepted: false, reason: 'at capacity' },
          { accepted: false },
          { accepted: false, reason: 'no web driver for x on this node', cannotRun: true },
        ],
      },
      4,
    ),
    [
      undefined,
      { reason: 'at capacity', cannotRun: false },
      { reason: 'refused', cannotRun: false },
      { reason: 'no web driver for x on this node', cannotRun: true },
    ],
  );
  t.throws(() => refusalsOf({ results: [{ accepted: true }] }, 2), {
    message: 'answered for 1 of 2 leases',
  });
  t.throws(
    () => refusalsOf({ accepted: true } as never, 1),
    {
      message: 'answered for 0 of 1 leases',
    },
    'the answer of a node that takes one lease per call',
  );
  t.throws(() => refusalsOf(undefined, 1));
});
