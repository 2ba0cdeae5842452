/**
 * Reports reach a live tasks node at once: a stuck node costs one short call
 * timeout, a node killed and restarted under the same ID costs nothing more
 * than its restart, and with no tasks node at all the reports wait for one.
 * Real NATS; the tasks nodes are child processes with a stand-in service.
 */
import t from 'tap';
import { ServiceBroker } from 'moleculer';
import { reportSender, REPORT_SENDING } from '../../../crawler/report-sender.js';
import { startProcess, type Running } from '../../../infra/processes.js';
import { natsUrl, uniqueDbName } from '../../helpers/servers.js';
import type { TapLike } from '../../helpers/cluster.js';

// Child processes start slowly on a busy machine; the default 120 s is too short.
t.setTimeout(240_000);

async function setup(t: TapLike, timeoutMs: number) {
  const namespace = uniqueDbName(t.name);
  const crawler = new ServiceBroker({
    nodeID: 'crawler-under-test',
    namespace,
    transporter: natsUrl(),
    logger: false,
    heartbeatInterval: 2,
    heartbeatTimeout: 6,
    requestTimeout: 10_000,
    retryPolicy: { enabled: false },
  });
  await crawler.start();
  const nodes: Running[] = [];
  const ids = new Set<string>();
  t.teardown(async () => {
    // Stopped gracefully: a node's DISCONNECT makes the crawler reject the calls still pending
    // there. A call abandoned to a node that restarted under the same ID would otherwise keep
    // its timeout timer, and this process, alive until the timeout (a minute in one test).
    const left = [...ids].map((id) => nodeLeft(crawler, id));
    await Promise.all(nodes.map((n) => n.stop('SIGTERM')));
    await Promise.all(left);
    await crawler.stop();
  });
  const send = reportSender<string>(crawler, { ...REPORT_SENDING, timeoutMs });
  const startTasks = async (id: string, mode: 'ok' | 'hang') => {
    const node = startProcess('test/helpers/tasks-stand-in-node.ts', [], {
      NODE_ID: id,
      NAMESPACE: namespace,
      TRANSPORTER: natsUrl(),
      MODE: mode,
    });
    nodes.push(node);
    ids.add(id);
    await node.waitFor(/READY/, 30_000);
    // Until the crawler's registry lists it, it cannot be picked.
    const deadline = Date.now() + 10_000;
    while (!crawler.registry.nodes.get(id)?.available && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    return node;
  };
  return { send, startTasks };
}

/**
 * Resolves once the broker no longer lists the node: at its DISCONNECT, or when its heartbeats
 * are missed (heartbeatTimeout) if it died without one.
 */
const nodeLeft = (broker: ServiceBroker, id: string) =>
  new Promise<void>((resolve) => {
    if (!broker.registry.nodes.get(id)?.available) return resolve();
    const onLeft = ({ node }: { node: { id: string } }) => {
      if (node.id !== id) return;
      broker.localBus.off('$node.disconnected', onLeft);
      resolve();
    };
    broker.localBus.on('$node.disconnected', onLeft);
  });

/**
 * The node's line saying it took the reports. It prints it before it answers,
 * but its stdout pipe may be read after the answer came over NATS, so a
 * delivered send waits a little for the line.
 */
const tookLine = (node: Running, report: string) =>
  node.waitFor(new RegExp(`TOOK \\["${report}"\\]`), 5_000);

t.test('a stuck tasks node costs one short timeout: the batch goes to the other', async (t) => {
  const { send, startTasks } = await setup(t, 1_000);
  const stuck = await startTasks('tasks-stuck', 'hang');
  const live = await startTasks('tasks-live', 'ok');
  const started = Date.now();
  await Promise.all(['a', 'b', 'c', 'd'].map((r) => send([r])));
  const ms = Date.now() - started;
  t.ok(ms < 4_000, `all four delivered in ${ms} ms`);
  for (const r of ['a', 'b', 'c', 'd'])
    await t.resolves(tookLine(live, r), `${r} was taken by the live node`);
  t.match(stuck.output(), /GOT/, 'the stuck node was tried (and timed out)');
});

t.test('a tasks node killed and restarted under its ID: sent again at once', async (t) => {
  // A call timeout far beyond the test: only the restart may end the wait.
  const { send, startTasks } = await setup(t, 60_000);
  const dying = await startTasks('tasks-1', 'hang');
  const delivered = send(['x']);
  await dying.waitFor(/GOT \["x"\]/, 10_000);
  await dying.stop('SIGKILL');
  const restarted = await startTasks('tasks-1', 'ok');
  const listedAt = Date.now();
  await delivered;
  const ms = Date.now() - listedAt;
  t.ok(ms < 3_000, `delivered ${ms} ms after the restarted node was listed`);
  await t.resolves(tookLine(restarted, 'x'), 'taken by the restarted node');
});

t.test('with no tasks node, the reports wait for one', async (t) => {
  const { send, startTasks } = await setup(t, 1_000);
  const delivered = send(['early']);
  await new Promise((r) => setTimeout(r, 1_500));
  const node = await startTasks('tasks-late', 'ok');
  await delivered;
  await t.resolves(tookLine(node, 'early'), 'taken by the node that came late');
});
