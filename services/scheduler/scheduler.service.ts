/**
 * The `scheduler` service: any number of instances, one active (leader lock in
 * MongoDB). The active one keeps the fair queue of pending sub tasks in
 * memory, leases them to crawler nodes with room, sweeps expired leases and
 * leases of vanished nodes, and reconciles task counters. Events make it fast;
 * periodic resyncs from MongoDB make it correct when an event is missed.
 */
import { settlerAlive, settlerOf } from '../shared/subtasks/settler.js';
import { Errors, type Context, type ServiceSchema } from 'moleculer';
import type { Config } from '../shared/config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { acquireConnection, releaseConnection } from '../shared/mongo.js';
import { needsAccounts } from '../shared/platforms.js';
import { announceFinished, announceLeased, announceSettled } from '../shared/subtasks/events.js';
import { type SubTasksSettled, type TaskCreated } from '../shared/contracts/events.js';
import { createLedger, type Ledger } from '../shared/subtasks/ledger.js';
import type { ProxyHealthReport } from '../shared/proxy-ports.js';
import { RegionHealth } from './region-health.js';
import { purgeExpiredTasks } from '../shared/subtasks/retention.js';
import type { Connection } from 'mongoose';
import { taskModels, type SubTaskDoc, type TaskModels } from '../shared/subtasks/models.js';
import { Dispatcher, refusalsOf } from './dispatcher.js';
import { type AcceptAnswer, type AcceptRequest } from '../shared/contracts/lease.js';
import { QUEUE_FIELDS, toQueueItem } from '../shared/subtasks/queue-item.js';
import { LeaderLock } from '../shared/leader.js';
import { STOP_SETTLE_MS, settleWithin } from '../shared/stop-order.js';
import { placeableNodes } from './nodes.js';
import { crawlerNodes } from '../shared/contracts/advert.js';
import { accountStates, type AccountRow } from './account-capacity.js';
import type {
  ClaimAnswer,
  ClaimRequest,
  ReleaseRequest,
  UsableAnswer,
} from '../shared/contracts/accounts.js';

const DISPATCH_EVERY_MS = 100;
/**
 * Events that free slots or add work are gathered this long into one dispatch
 * pass: results arrive in waves, and one pass leases a node's share with one
 * claim and one accept call instead of one of each per result. A freed slot
 * usually starts a prefetched lease meanwhile.
 */
const DISPATCH_GATHER_MS = 10;
const SWEEP_EVERY_MS = 1_000;
/**
 * Expired leases are looked for less often: leases last LEASE_MS (30 s), a
 * node that leaves loses its leases at once by event, and the look-up reads
 * every leased sub task.
 */
const EXPIRE_EVERY_MS = 5_000;
const RESYNC_EVERY_MS = 15_000;
const RECONCILE_EVERY_MS = 30_000;
/** The active scheduler also purges results past RETENTION_DAYS; once a minute is plenty. */
const PURGE_EVERY_MS = 60_000;
/**
 * A dispatch pass with web work waits for `accounts.usable`; an accounts
 * service that hangs must not hold up the api work of that pass for the full
 * request timeout.
 */
const ACCOUNTS_CALL_MS = 2_000;

/** A node as the registry's events carry it. */
interface RegistryNode {
  id: string;
  instanceID?: string;
  metadata?: unknown;
}

/** A leased sub task as the in-flight resync reads it. */
type Leased = Pick<SubTaskDoc, '_id' | 'leaseNode' | 'platform' | 'regionCode' | 'channel'>;

export function schedulerService(config: Config, clock: Clock = systemClock): ServiceSchema {
  const s = config.scheduling;
  let models: TaskModels;
  let connection: Connection;
  let ledger: Ledger;
  let lock: LeaderLock;
  let dispatcher: Dispatcher;
  let leader = false;
  const regionHealth = new RegionHealth();
  const timers: NodeJS.Timeout[] = [];
  const loops = new Set<string>();
  let electionTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  /** Work started by events and timers that nobody awaits but the stop (see `background`). */
  const inFlight = new Set<Promise<unknown>>();
  /** Each crawler node's incarnation as last seen (Moleculer's instanceID, new at every start). */
  const instances = new Map<string, string>();

  /** A gathered dispatch pass is due (see DISPATCH_GATHER_MS). */
  let dispatchQueued = false;
  /** The active scheduler, and not stopping: it takes work (events, passes). */
  const active = () => leader && !stopping;
  /** Runs a periodic job without overlapping itself. */
  const guarded = (name: string, job: () => Promise<unknown>) => async () => {
    if (loops.has(name) || !active()) return;
    loops.add(name);
    try {
      await job();
    } finally {
      loops.delete(name);
    }
  };

  return {
    name: 'scheduler',

    events: {
      'task.created'(ctx: Context<TaskCreated>) {
        if (!active()) return;
        const { taskId, items } = ctx.params;
        // The event carries the new sub tasks, so there is nothing to read back.
        if (items) {
          for (const item of items) if (!dispatcher.isInFlight(item.id)) dispatcher.queue.add(item);
          this.dispatchSoon();
        } else {
          this.background(
            `loading task ${taskId} failed`,
            this.loadPending({ taskId }).then(() => this.dispatchSoon()),
          );
        }
      },
      'subtasks.settled'(ctx: Context<SubTasksSettled>) {
        if (!active()) return;
        for (const { subTaskId, outcome } of ctx.params.settled) {
          dispatcher.release(subTaskId);
          if (outcome === 'retry') {
            this.background(`requeueing ${subTaskId} failed`, this.requeue(subTaskId));
          }
        }
        this.dispatchSoon();
      },
      // Every instance listens, so a standby that takes over already knows.
      'proxies.health'(ctx: Context<ProxyHealthReport>) {
        regionHealth.update(ctx.params);
        if (active()) this.dispatchSoon();
      },
      // A node restarted under the same ID is seen again (INFO) before its old self is missed
      // (heartbeats): the old incarnation's leases would wait out their expiry.
      '$node.connected'(ctx: Context<{ node: RegistryNode }>) {
        this.noticeInstance(ctx.params.node);
      },
      '$node.updated'(ctx: Context<{ node: RegistryNode }>) {
        this.noticeInstance(ctx.params.node);
      },
      '$node.disconnected'(ctx: Context<{ node: { id: string } }>) {
        regionHealth.forget(ctx.params.node.id);
        instances.delete(ctx.params.node.id);
        if (active()) {
          const node = ctx.params.node.id;
          this.background(
            `expiring the leases of ${node} failed`,
            this.expireLeases(node, `crawler node ${node} disconnected`),
          );
        }
      },
    },

    methods: {
      /** Stop order, step 1 (services/shared/stop-order.ts): no more passes, events or elections. */
      quiesce() {
        stopping = true;
        clearInterval(electionTimer);
        for (const t of timers.splice(0)) clearInterval(t);
      },

      async loadPending(filter: Record<string, unknown> = {}) {
        const docs = await models.SubTask.find({ ...filter, status: 'pending' }, QUEUE_FIELDS).lean<
          SubTaskDoc[]
        >();
        for (const d of docs)
          if (!dispatcher.isInFlight(d._id)) dispatcher.queue.add(toQueueItem(d));
      },

      async requeue(id: string) {
        const doc = await models.SubTask.findOne(
          { _id: id, status: 'pending' },
          QUEUE_FIELDS,
        ).lean<SubTaskDoc>();
        if (doc && !dispatcher.isInFlight(id)) dispatcher.queue.add(toQueueItem(doc));
      },

      async resyncInFlight() {
        const leases = await models.SubTask.find(
          { status: 'processing' },
          { leaseNode: 1, platform: 1, regionCode: 1, channel: 1 },
        ).lean<Leased[]>();
        // A web lease of a real site always runs as an account, of its region when it has one.
        dispatcher.resetInFlight(
          leases.map((l) => ({
            id: l._id,
            node: l.leaseNode ?? '',
            platform: l.platform,
            ...(l.channel === 'web' && needsAccounts(l.platform)
              ? { accountRegion: l.regionCode ?? null }
              : {}),
          })),
        );
      },

      /**
       * A crawler node seen with another instanceID than before restarted: the leases its
       * old incarnation held can never be reported, and go back now. The old one's late
       * report, if any, is fenced off by the lease token that the expiry clears.
       */
      noticeInstance(node: RegistryNode) {
        if (!node.instanceID || crawlerNodes([node]).length === 0) return;
        const before = instances.get(node.id);
        instances.set(node.id, node.instanceID);
        // Only an incarnation already seen here needs no look: one seen first (this scheduler
        // started after the node, or missed its first INFO) may still hold an old one's leases,
        // so the ledger, not this memory, tells which leases were taken by another incarnation.
        if (before === node.instanceID || !active()) return;
        this.background(
          `expiring the leases of ${node.id}'s old incarnation failed`,
          (async () => {
            const n = await this.expireLeases(
              node.id,
              `crawler node ${node.id} restarted`,
              node.instanceID,
            );
            // A warning: the node died without stopping (a clean stop hands its leases back itself).
            if (n > 0)
              this.logger.warn(
                `crawler node ${node.id} restarted: ${n} leases of its old incarnation go back`,
              );
          })(),
        );
      },

      /**
       * Leases of a vanished node (or of its incarnations other than `butInstance`), or past
       * their expiry: a retryable failure of that attempt.
       */
      async expireLeases(
        node: string | undefined,
        reason?: string,
        butInstance?: string,
      ): Promise<number> {
        const leases = await ledger.staleLeases(node, butInstance);
        const settled = await ledger.settle(
          leases.map((lease) => ({
            subTaskId: lease._id,
            taskId: lease.taskId,
            token: lease.leaseToken!,
            attempt: lease.attempts,
            failure: {
              status: 'failed',
              retryable: true,
              message: reason ?? `lease expired: crawler node ${lease.leaseNode} stopped reporting`,
            },
          })),
        );
        for (const lease of leases) dispatcher.release(lease._id);
        await announceSettled(this.broker, settled);
        return leases.length;
      },

      /**
       * Work started by an event or a timer, which nobody awaits but the stop: a failure
       * (MongoDB unreachable a moment) is logged, never an unhandled rejection that ends
       * the process; the periodic passes (expiry, reload, dispatch) make it good.
       */
      background(what: string, work: Promise<unknown>) {
        const caught = work.catch((err: unknown) => this.logger.warn(`${what}:`, err));
        inFlight.add(caught);
        void caught.finally(() => inFlight.delete(caught));
      },

      dispatchSoon() {
        if (dispatchQueued || stopping) return;
        dispatchQueued = true;
        setTimeout(() => {
          dispatchQueued = false;
          this.background('dispatch', guarded('dispatch', () => dispatcher.dispatch())());
        }, DISPATCH_GATHER_MS);
      },

      async becomeLeader() {
        leader = true;
        this.logger.info(`scheduler ${this.broker.nodeID} is now the active scheduler`);
        try {
          await this.resyncInFlight();
          await this.loadPending();
        } catch (err) {
          // Not leading until it could read its work: the next check takes the lead again.
          leader = false;
          throw err;
        }
        if (stopping) return;
        const every = (ms: number, name: string, job: () => Promise<unknown>) =>
          timers.push(setInterval(() => this.background(name, guarded(name, job)()), ms));
        every(DISPATCH_EVERY_MS, 'dispatch', () => dispatcher.dispatch());
        every(EXPIRE_EVERY_MS, 'expire', () => this.expireLeases(undefined));
        every(SWEEP_EVERY_MS, 'sweep', () => dispatcher.sweepUnplaceable());
        every(RESYNC_EVERY_MS, 'resync', async () => {
          await this.resyncInFlight();
          await this.loadPending();
        });
        every(RECONCILE_EVERY_MS, 'reconcile', async () => {
          for (const taskId of await ledger.unfinishedTaskIds(clock.now() - RECONCILE_EVERY_MS)) {
            const finished = await ledger.reconcile(taskId, RECONCILE_EVERY_MS, (settler) =>
              settlerAlive(this.broker, settler),
            );
            if (finished) await announceFinished(this.broker, finished);
          }
        });
        every(PURGE_EVERY_MS, 'purge', async () => {
          const cutoff = clock.now() - config.retentionDays * 86_400_000;
          const purged = await purgeExpiredTasks(models, connection, cutoff);
          if (purged > 0)
            this.logger.info(`purged ${purged} task(s) past ${config.retentionDays} days`);
        });
      },

      loseLeadership() {
        leader = false;
        for (const t of timers.splice(0)) clearInterval(t);
        dispatcher = this.newDispatcher();
        this.logger.warn(`scheduler ${this.broker.nodeID} lost the leader lock`);
      },

      async elect() {
        if (stopping) return;
        const held = await lock
          .acquire(this.broker.nodeID, clock.now(), s.leaderTtlMs)
          .catch((err: unknown) => {
            this.logger.warn('leader lock check failed:', err);
            return false;
          });
        // A check still in flight when the service stopped must not start the leader's timers:
        // they would outlive the broker and keep its process alive.
        if (stopping) return;
        if (held && !leader) await this.becomeLeader();
        else if (!held && leader) this.loseLeadership();
      },

      newDispatcher(): Dispatcher {
        return new Dispatcher({
          clock,
          nodes: () =>
            regionHealth.apply(
              placeableNodes(
                crawlerNodes(
                  this.broker.registry.nodes.list({ onlyAvailable: true, withServices: false }),
                ),
              ),
            ),
          capOf: (platform) => s.platformConcurrency[platform] ?? s.defaultPlatformConcurrency,
          leaseMs: s.leaseMs,
          regionWaitMs: s.regionWaitMs,
          claim: async (items, nodeId, token, expiresAt) => {
            const instance = (this.broker.registry.nodes.get(nodeId) as RegistryNode | undefined)
              ?.instanceID;
            const claimed = new Set(await ledger.claim(items, nodeId, token, expiresAt, instance));
            announceLeased(
              this.broker,
              items.filter((item) => claimed.has(item.id)),
              (message, err) => this.logger.warn(message, err),
            );
            return claimed;
          },
          send: async (nodeId, leases) => {
            const answer = await this.broker.call<AcceptAnswer, AcceptRequest>(
              'crawler.accept',
              { leases },
              { nodeID: nodeId },
            );
            return refusalsOf(answer, leases.length);
          },
          giveBack: async (lease, message) => {
            this.logger.warn(message);
            if (await ledger.unclaim(lease.subTaskId, lease.token))
              await this.requeue(lease.subTaskId);
          },
          warn: (message, err) => this.logger.warn(message, err),
          failPending: async (item, message) => {
            const settled = await ledger.failPending(item.id, {
              status: 'failed',
              retryable: false,
              message,
            });
            await announceSettled(this.broker, [settled]);
          },
          usableAccounts: async () => {
            // No accounts service (yet: nodes start in any order): no account is usable, and
            // asking would only log the broker's "not registered" warning.
            if (!this.broker.registry.actions.isAvailable('accounts.usable')) return {};
            try {
              const answer = await this.broker.call<UsableAnswer, Record<string, never>>(
                'accounts.usable',
                {},
                { timeout: ACCOUNTS_CALL_MS },
              );
              return answer.counts;
            } catch (err) {
              // No accounts service in the cluster: no account is usable, and web work
              // fails after its wait. Any other error leaves the counts unknown for a pass.
              if (err instanceof Errors.ServiceNotFoundError) return {};
              throw err;
            }
          },
          claimAccount: (request) =>
            this.broker.call<ClaimAnswer, ClaimRequest>('accounts.claim', request, {
              timeout: ACCOUNTS_CALL_MS,
            }),
          releaseAccount: async (id, holder) => {
            const answer = await this.broker.call<{ ok: boolean }, ReleaseRequest>(
              'accounts.release',
              { id, holder, verdict: { state: 'healthy' }, prompted: false },
            );
            if (!answer.ok) this.logger.warn(`account ${id} was no longer held by ${holder}`);
          },
          accountWaitMs: config.accounts.waitMs,
          runsAsAccounts: needsAccounts,
          describeAccounts: async (platform, regionCode) => {
            const rows = await this.broker.call<AccountRow[], { platform: string }>(
              'accounts.list',
              { platform },
              { timeout: ACCOUNTS_CALL_MS },
            );
            return accountStates(rows, regionCode, clock.now());
          },
        });
      },
    },

    async started() {
      connection = await acquireConnection(config.mongoUrl, config.mongoDb);
      models = taskModels(connection);
      ledger = createLedger(models, config, clock, settlerOf(this.broker), (message, err) =>
        this.logger.warn(message, err),
      );
      lock = new LeaderLock(connection, 'scheduler');
      dispatcher = this.newDispatcher();
      await this.elect();
      // Renew at a third of the TTL, so two missed checks still keep the lock.
      // Taking the lead reads MongoDB (resync, pending work): a failed read is logged and the
      // next check tries again, never an unhandled rejection that ends the process.
      electionTimer = setInterval(
        () => this.background('leader check', this.elect()),
        Math.max(200, Math.floor(s.leaderTtlMs / 3)),
      );
    },

    /** Step 2: what is under way settles; the lock goes to a standby at once. */
    async stopped() {
      stopping = true;
      clearInterval(electionTimer);
      for (const t of timers.splice(0)) clearInterval(t);
      await settleWithin(STOP_SETTLE_MS, dispatcher.settled(), ...inFlight);
      if (leader) await lock.release(this.broker.nodeID).catch(() => undefined);
      leader = false;
      await ledger.close();
      await releaseConnection(config.mongoUrl, config.mongoDb);
    },
  };
}
