/**
 * A cluster node as bin/serve.ts starts it, with timing probes, for
 * `BENCH_TRACE=1` runs of bench/pipeline.bench.ts. The product code is
 * untouched: the probes wrap class prototypes (Dispatcher, Ledger), add a
 * broker middleware (every remote call, local action and event handler),
 * turn on the MongoDB driver's command monitoring and watch the event loop.
 * A `benchTrace` service on every node answers `reset` and `stats`.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import mongoose from 'mongoose';
import type { Context, Middleware } from 'moleculer';
import { runNode } from '../bin/lifecycle.js';
import { createBroker } from '../services/index.js';
import { crawlerAdvert } from '../crawler/advert.js';
import { Dispatcher } from '../services/scheduler/dispatcher.js';
import { crawlerNodes } from '../services/scheduler/nodes.js';
import { configFromProcess } from '../services/shared/config.js';
import { Ledger } from '../services/tasks/ledger.js';

const samples = new Map<string, number[]>();
/** When each kind of sample first started (epoch ms), for the ramp-up. */
const firsts = new Map<string, number>();
const record = (name: string, ms: number) => {
  if (!firsts.has(name)) firsts.set(name, performance.timeOrigin + performance.now() - ms);
  let list = samples.get(name);
  if (!list) samples.set(name, (list = []));
  list.push(ms);
};
const t = () => performance.now();

function summary(values: number[]) {
  const v = [...values].sort((a, b) => a - b);
  const at = (p: number) => v[Math.min(v.length - 1, Math.max(0, Math.ceil(p * v.length) - 1))]!;
  const sum = v.reduce((a, b) => a + b, 0);
  return { n: v.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1), sum };
}

// -- Ledger: every state change of a sub task (claim is the scheduler's, the rest the tasks node's).
for (const name of ['claim', 'renew', 'settle'] as const) {
  const proto = Ledger.prototype as unknown as Record<
    string,
    (...a: unknown[]) => Promise<unknown>
  >;
  const orig = proto[name]!;
  proto[name] = async function (this: unknown, ...args: unknown[]) {
    const t0 = t();
    try {
      return await orig.apply(this, args);
    } finally {
      record(`ledger.${name}`, t() - t0);
    }
  };
}

// -- Dispatcher: pass durations, leases per pass, and how long a freed slot waits for a pass.
let dispatcher: Dispatcher | undefined;
let passStarts: number[] = [];
let passBusyMs = 0;
let releasedAt: number[] = [];
let windowStart = t();
/** The active scheduler's dispatcher (a new one after a leadership change). */
const remember = (d: Dispatcher) => (dispatcher = d);
{
  const proto = Dispatcher.prototype;
  const dispatch = proto.dispatch;
  proto.dispatch = async function (this: Dispatcher) {
    remember(this);
    const t0 = t();
    passStarts.push(t0);
    for (const r of releasedAt) record('slot freed -> next pass start', t0 - r);
    releasedAt = [];
    const before = this.inFlightCount;
    let leased = 0;
    try {
      leased = await dispatch.call(this);
      return leased;
    } finally {
      const ms = t() - t0;
      if (this.inFlightCount !== before || leased > 0) {
        // Only passes that picked something (an empty pass is a cheap no-op).
        record('dispatch pass (with picks)', ms);
        record('leases per pass (with picks)', leased);
      }
      passBusyMs += ms;
    }
  };
  const release = proto.release;
  proto.release = function (this: Dispatcher, id: string) {
    if (this.isInFlight(id)) releasedAt.push(t());
    return release.call(this, id);
  };
}

// -- MongoDB: every command's round trip as the driver sees it, by command and collection.
{
  const create = mongoose.createConnection.bind(mongoose);
  (mongoose as unknown as { createConnection: unknown }).createConnection = (
    uri: string,
    options: mongoose.ConnectOptions = {},
  ) => {
    const conn = create(uri, { ...options, monitorCommands: true });
    const pending = new Map<number, string>();
    const client = conn.getClient();
    client.on('commandStarted', (e) => {
      const coll = e.command[e.commandName];
      pending.set(e.requestId, `${e.commandName} ${typeof coll === 'string' ? coll : ''}`.trim());
    });
    const done = (e: { requestId: number; duration: number }) => {
      const name = pending.get(e.requestId);
      pending.delete(e.requestId);
      if (name) record(`db ${name}`, e.duration);
    };
    client.on('commandSucceeded', done);
    client.on('commandFailed', done);
    return conn;
  };
}

// -- Moleculer: calls this node makes, actions and events it handles.
const timing: Middleware = {
  name: 'BenchTrace',
  call(next: (...a: any[]) => Promise<unknown>) {
    return (actionName: string, params: unknown, opts: unknown) => {
      const t0 = t();
      const p = next(actionName, params, opts);
      return p.finally(() => record(`call ${actionName}`, t() - t0));
    };
  },
  localAction(next: (ctx: Context) => Promise<unknown>, action: { name: string }) {
    return (ctx: Context) => {
      const t0 = t();
      return next(ctx).finally(() => record(`handle ${action.name}`, t() - t0));
    };
  },
  localEvent(next: (ctx: Context) => Promise<unknown>, event: { name: string }) {
    return (ctx: Context) => {
      const t0 = t();
      return Promise.resolve(next(ctx)).finally(() => record(`event ${event.name}`, t() - t0));
    };
  },
} as unknown as Middleware;

const config = configFromProcess();
const eld = monitorEventLoopDelay({ resolution: 10 });
eld.enable();

const metadata = config.services.includes('crawler') ? { crawler: crawlerAdvert(config) } : {};
const broker = await createBroker(config, config.services, undefined, {
  metadata,
  middlewares: [timing],
});

// -- The scheduler's own view: free slots while due work waits in its queue.
let freeSlotMs = 0;
let sampledMs = 0;
const SAMPLE_EVERY_MS = 20;
let lastSample = t();
const sampler = setInterval(() => {
  const now = t();
  const dt = now - lastSample;
  lastSample = now;
  if (!dispatcher) return;
  sampledMs += dt;
  const nodes = crawlerNodes(
    broker.registry.nodes.list({ onlyAvailable: true, withServices: false }),
  );
  const capacity = nodes.reduce((a, n) => a + n.capacity, 0);
  if (dispatcher.queue.size > 0)
    freeSlotMs += Math.max(0, capacity - dispatcher.inFlightCount) * dt;
}, SAMPLE_EVERY_MS);
sampler.unref();

broker.createService({
  name: 'benchTrace',
  actions: {
    reset() {
      samples.clear();
      firsts.clear();
      eld.reset();
      passStarts = [];
      passBusyMs = 0;
      releasedAt = [];
      freeSlotMs = 0;
      sampledMs = 0;
      windowStart = t();
      return true;
    },
    stats() {
      const out: Record<string, ReturnType<typeof summary>> = {};
      for (const [name, values] of samples) out[name] = summary(values);
      const gaps = passStarts.slice(1).map((x, i) => x - passStarts[i]!);
      return {
        node: broker.nodeID,
        windowMs: t() - windowStart,
        samples: out,
        firsts: Object.fromEntries(firsts),
        eventLoopDelay: {
          p50: eld.percentile(50) / 1e6,
          p99: eld.percentile(99) / 1e6,
          max: eld.max / 1e6,
        },
        dispatch: dispatcher
          ? {
              passes: passStarts.length,
              passBusyMs,
              passStartGap: gaps.length ? summary(gaps) : undefined,
              freeSlotMsWhileQueued: freeSlotMs,
              sampledMs,
            }
          : undefined,
      };
    },
  },
});

await runNode(broker, config);
