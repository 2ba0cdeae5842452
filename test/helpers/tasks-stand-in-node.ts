/**
 * A node with a stand-in `tasks` service, run as a child process by the report
 * sender's tests so it can be killed with -9 and restarted under the same node
 * ID. `settleBatch` prints `GOT <reports>` on arrival; with MODE=hang it then
 * never answers (a stuck or dying node), else it prints `TOOK <reports>` and
 * answers.
 */
import { ServiceBroker, type Context } from 'moleculer';

const broker = new ServiceBroker({
  nodeID: process.env.NODE_ID,
  namespace: process.env.NAMESPACE,
  transporter: process.env.TRANSPORTER,
  logger: false,
  heartbeatInterval: 2,
  heartbeatTimeout: 6,
  retryPolicy: { enabled: false },
});
broker.createService({
  name: 'tasks',
  actions: {
    settleBatch(ctx: Context<{ reports: unknown[] }>) {
      console.log(`GOT ${JSON.stringify(ctx.params.reports)}`);
      if (process.env.MODE === 'hang') return new Promise(() => undefined);
      console.log(`TOOK ${JSON.stringify(ctx.params.reports)}`);
      return { results: [] };
    },
  },
});
await broker.start();
console.log(`READY node=${broker.nodeID}`);
