/**
 * The benchmark's cluster: each node a child process as `npm run serve` starts
 * it (or the traced node entry), on its own database and namespace, and a
 * probe broker in this process that sees them over NATS. Stopping a node ends
 * its whole process tree, Chromium included.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceBroker } from 'moleculer';
import { createBroker } from '../../services/index.js';
import { loadConfig } from '../../services/shared/config.js';
import { startProcess, type Running } from '../../infra/processes.js';
import { processTree } from './procfs.js';
import { withCommandMonitoring } from './trace/tally.js';

/** The traced node: bin/serve.ts's node with Moleculer tracing and MongoDB command monitoring. */
const TRACED_NODE = 'bench/pipeline/trace/node.ts';

export interface Node {
  name: string;
  nodeId: string;
  p: Running;
}

export class Cluster {
  readonly suffix = randomBytes(3).toString('hex');
  readonly nodes: Node[] = [];
  /** What every node's environment holds. */
  readonly env: Record<string, string>;

  constructor(
    mongoUrl: string,
    natsUrl: string,
    private readonly traced: boolean,
  ) {
    this.env = {
      TRANSPORTER: natsUrl,
      MONGO_URL: mongoUrl,
      MONGO_DB: `bench_pipeline_${this.suffix}`,
      NAMESPACE: `pipeline-${this.suffix}`,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_RPS: '1000000',
      RATE_LIMIT_BURST: '1000000',
      MAX_UNFINISHED_SUBTASKS: '100000000',
      DEFAULT_PLATFORM_CONCURRENCY: '1000',
    };
  }

  start(name: string, env: Record<string, string>): Node {
    const nodeId = `${name}-${this.suffix}`;
    const node: Node = {
      name,
      nodeId,
      p: startProcess(this.traced ? TRACED_NODE : 'bin/serve.ts', [], {
        ...this.env,
        ...env,
        ...(this.traced ? { MONGO_URL: withCommandMonitoring(this.env.MONGO_URL!) } : {}),
        NODE_ID: nodeId,
      }),
    };
    this.nodes.push(node);
    return node;
  }

  /** Until the node prints READY; answers its api URL if it serves one. */
  async ready(node: Node, timeoutMs = 60_000): Promise<string | undefined> {
    const m = await node.p.waitFor(
      new RegExp(`READY node=${node.nodeId} \\S+(?: api=(\\S+))?`),
      timeoutMs,
    );
    return m[1];
  }

  /** A broker in this process on the cluster's namespace, with no services of its own. */
  async probe(): Promise<ServiceBroker> {
    const broker = await createBroker(
      loadConfig({
        ...this.env,
        SERVICES: 'api',
        NODE_ID: `bench-${this.suffix}`,
        LOG_LEVEL: 'warn',
      }),
      [],
    );
    await broker.start();
    return broker;
  }

  /** Until the probe sees every node in `ids` over NATS and none in `gone`. */
  async discovered(probe: ServiceBroker, ids: string[], gone: string[] = []): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const live = new Set(
        probe.registry.nodes
          .list({ onlyAvailable: true, withServices: false })
          .map((n: { id: string }) => n.id),
      );
      if (ids.every((id) => live.has(id)) && gone.every((id) => !live.has(id))) return;
      if (Date.now() > deadline) throw new Error(`nodes not discovered: want ${ids.join(', ')}`);
      await sleep(100);
    }
  }

  nameOf(nodeId: string): string {
    return this.nodes.find((n) => n.nodeId === nodeId)?.name ?? nodeId;
  }

  /** SIGTERM (a clean broker stop), then SIGKILL for whatever is left of its tree. */
  async stop(node: Node, graceMs = 15_000): Promise<void> {
    const pid = node.p.child.pid;
    const tree = pid === undefined ? [] : processTree(pid);
    const timedOut = await Promise.race([
      node.p.stop('SIGTERM').then(() => false),
      sleep(graceMs).then(() => true),
    ]);
    if (timedOut)
      console.error(`bench: ${node.name} did not stop within ${graceMs} ms; killing it`);
    for (const p of tree.reverse()) kill(p);
    this.nodes.splice(this.nodes.indexOf(node), 1);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.nodes].map((n) => this.stop(n)));
  }

  /** At once, for a run that has to give up. */
  killAll(): void {
    for (const node of this.nodes) {
      const pid = node.p.child.pid;
      if (pid !== undefined) for (const p of processTree(pid).reverse()) kill(p);
    }
  }

  /** Every WARN, ERROR or FATAL line the nodes printed. */
  warnings(): string[] {
    const lines: string[] = [];
    for (const node of this.nodes) {
      for (const line of node.p.output().split('\n')) {
        if (/\b(WARN|ERROR|FATAL)\b/.test(line)) lines.push(`${node.name}: ${line.slice(0, 300)}`);
      }
    }
    return lines;
  }

  /** The tail of every node's output, for a run that failed. */
  dumpOutputs(): void {
    for (const node of this.nodes) {
      console.error(`---- ${node.name} output (last 3000 chars)\n${node.p.output().slice(-3000)}`);
    }
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
