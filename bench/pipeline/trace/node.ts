/**
 * A cluster node as bin/serve.ts starts it, observed for `BENCH_TRACE=1` runs
 * with the framework's and the driver's own instruments, the product code
 * untouched: Moleculer's tracing (every action and event span, into a Tally
 * through an exporter), the MongoDB driver's command monitoring (switched on in
 * the connection string the benchmark passes, see withCommandMonitoring), and
 * Node's event-loop delay histogram. A `benchTrace` service answers `reset` and
 * `stats`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import mongoose from 'mongoose';
import { TracerExporters, type BrokerOptions, type Span } from 'moleculer';
import { runNode } from '../../../bin/lifecycle.js';
import { createBroker } from '../../../services/index.js';
import { configFromProcess } from '../../../services/shared/config.js';
import { actionTags, spanSample, Tally, type TraceStats } from './tally.js';

const tally = new Tally();

/** Every finished span into the tally (the `leases` tag of `crawler.accept` as its own count). */
class TallyExporter extends TracerExporters.Base {
  constructor() {
    super({});
  }
  override spanFinished(span: Span): void {
    const sample = spanSample(span);
    if (!sample) return;
    tally.record(sample.name, sample.start, sample.ms);
    if (typeof span.tags.leases === 'number')
      tally.record('leases per crawler.accept', sample.start, span.tags.leases);
  }
}

const tracing: BrokerOptions['tracing'] = {
  enabled: true,
  actions: true,
  events: true,
  tags: { action: actionTags, event: () => ({}) },
  // Moleculer resolves an exporter instance as it does a { type } entry; its typings only know the latter.
  exporter: [new TallyExporter() as unknown as { type: string }],
};

/** Every command's round trip as the driver sees it, by command and collection. */
function watchCommands(connection: mongoose.Connection): void {
  const pending = new Map<number, { name: string; start: number }>();
  const client = connection.getClient();
  client.on('commandStarted', (e) => {
    const coll = e.command[e.commandName];
    const name = `db ${e.commandName} ${typeof coll === 'string' ? coll : ''}`.trim();
    pending.set(e.requestId, { name, start: Date.now() });
  });
  const done = (e: { requestId: number; duration: number }) => {
    const started = pending.get(e.requestId);
    pending.delete(e.requestId);
    if (started) tally.record(started.name, started.start, e.duration);
  };
  client.on('commandSucceeded', done);
  client.on('commandFailed', done);
}

const config = configFromProcess();
const eventLoop = monitorEventLoopDelay({ resolution: 10 });
eventLoop.enable();
let windowStart = Date.now();

const broker = await createBroker(config, config.services, undefined, { tracing });
broker.createService({
  name: 'benchTrace',
  actions: {
    reset() {
      tally.reset();
      eventLoop.reset();
      windowStart = Date.now();
      return true;
    },
    stats(): TraceStats {
      return {
        node: broker.nodeID,
        windowMs: Date.now() - windowStart,
        samples: tally.summaries(),
        firsts: tally.firstStarts(),
        eventLoopDelay: {
          p50: eventLoop.percentile(50) / 1e6,
          p99: eventLoop.percentile(99) / 1e6,
          max: eventLoop.max / 1e6,
        },
      };
    },
  },
});

await runNode(broker, config);
// The services opened their connections while starting.
for (const connection of mongoose.connections)
  if (connection.readyState === 1) watchCommands(connection);
