/**
 * The scheduler's dispatcher with every dependency in memory (crawler nodes,
 * claims, sends, web accounts) and a log of what it did, for its unit tests.
 */
import { Dispatcher, type Refusal } from '../../services/scheduler/dispatcher.js';
import { type LeaseMessage } from '../../services/shared/contracts/lease.js';
import type { QueueItem } from '../../services/shared/contracts/events.js';
import type { CrawlerNode } from '../../services/shared/contracts/advert.js';
import { AccountPool, poolAccount, type PoolAccount } from './account-pool.js';

/** One dispatch pass, waiting for its claims and sends; returns the leases sent. */
export async function dispatchAll(d: Dispatcher): Promise<number> {
  await d.dispatch();
  return d.settled();
}

export const T0 = 1_700_000_000_000;
export const LEASE_MS = 120_000;
export const REGION_WAIT_MS = 60_000;
export const ACCOUNT_WAIT_MS = 30_000;

export function node(id: string, capacity: number, extra: Partial<CrawlerNode> = {}): CrawlerNode {
  return {
    id,
    capacity,
    regions: [],
    channels: ['api', 'web'],
    platforms: ['sandbox', 'chatgpt', 'claude'],
    ...extra,
  };
}

export interface Options {
  nodes?: CrawlerNode[];
  caps?: Record<string, number>;
  /** Sub task ids whose claim returns false / throws. */
  claimFalse?: string[];
  claimThrows?: string[];
  /** Node ids whose send throws: unreachable (a message), or this error. */
  sendThrows?: Record<string, string | Error>;
  /** Sub task ids the node refuses, with the reason. */
  refuse?: Record<string, Refusal>;
  /** Web accounts (default: three without region for each of the test platforms). */
  accounts?: PoolAccount[];
  /** The accounts service does not answer. */
  accountsDown?: boolean;
  describeAccounts?: (platform: string, regionCode: string | null) => Promise<string | undefined>;
  /** Platforms whose web channel needs no account (default: none). */
  simulated?: string[];
}

const PLATFORMS = ['sandbox', 'chatgpt', 'claude'];
const someAccounts = () =>
  PLATFORMS.flatMap((p) => [1, 2, 3].map((n) => poolAccount(`${p}-acc${n}`, p)));

export function harness(o: Options = {}) {
  const clock = { time: T0, now: () => clock.time };
  const log: string[] = [];
  const calls = {
    claim: [] as { id: string; node: string; token: string; expiresAt: number }[],
    send: [] as { node: string; lease: LeaseMessage }[],
    /** One entry per crawler.accept call. */
    sends: [] as { node: string; ids: string[] }[],
    giveBack: [] as { lease: LeaseMessage; message: string }[],
    failPending: [] as { item: QueueItem; message: string }[],
  };
  const state = { nodes: o.nodes ?? [node('n1', 2)], accountsDown: o.accountsDown === true };
  const pool = new AccountPool(o.accounts ?? someAccounts());
  const down = async () => {
    if (state.accountsDown) throw new Error('accounts service unreachable');
  };
  const d = new Dispatcher({
    clock,
    nodes: () => state.nodes,
    capOf: (platform) => o.caps?.[platform] ?? 100,
    leaseMs: LEASE_MS,
    regionWaitMs: REGION_WAIT_MS,
    claim: async (items, nodeId, token, expiresAt) => {
      for (const it of items) {
        log.push(`claim ${it.id}`);
        calls.claim.push({ id: it.id, node: nodeId, token, expiresAt });
      }
      // One write for the batch: it fails as a whole.
      if (items.some((it) => o.claimThrows?.includes(it.id))) throw new Error('mongo down');
      return new Set(items.filter((it) => !o.claimFalse?.includes(it.id)).map((it) => it.id));
    },
    send: async (nodeId, leases) => {
      calls.sends.push({ node: nodeId, ids: leases.map((l) => l.subTaskId) });
      for (const lease of leases) {
        log.push(`send ${lease.subTaskId}`);
        calls.send.push({ node: nodeId, lease });
      }
      const thrown = o.sendThrows?.[nodeId];
      if (thrown !== undefined) throw typeof thrown === 'string' ? new Error(thrown) : thrown;
      return leases.map((l) => o.refuse?.[l.subTaskId]);
    },
    giveBack: async (lease, message) => {
      calls.giveBack.push({ lease, message });
    },
    failPending: async (it, message) => {
      calls.failPending.push({ item: it, message });
    },
    warn: (message) => log.push(`warn ${message}`),
    usableAccounts: async () => {
      await down();
      return pool.usable().counts;
    },
    claimAccount: async (request) => {
      await down();
      log.push(`claim account for ${request.holder.split(' ')[0]}`);
      return pool.claim(request);
    },
    releaseAccount: async (id, holder) => {
      await down();
      pool.release(id, holder);
    },
    accountWaitMs: ACCOUNT_WAIT_MS,
    runsAsAccounts: (platform) => !o.simulated?.includes(platform),
    describeAccounts: o.describeAccounts,
  });
  return { d, clock, calls, log, state, pool };
}

export const sentIds = (calls: { send: { lease: LeaseMessage }[] }) =>
  calls.send.map((s) => s.lease.subTaskId);
