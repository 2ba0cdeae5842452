/**
 * The active scheduler's working state: the fair queue of pending sub tasks,
 * what is in flight on which node and platform, and one dispatch pass that
 * leases as much as nodes, platform caps and due times allow. All I/O is
 * injected, so the policy is tested without servers.
 */
import type { Clock } from '../shared/clock.js';
import type { Channel } from '../shared/platforms.js';
import { groupBy } from '../shared/group-by.js';
import { FairQueue } from './fair-queue.js';
import { type QueueItem } from '../shared/contracts/events.js';
import { newLease, type Lease } from '../shared/claim.js';
import { capableNodes, pickNode, type Placement } from './nodes.js';
import { pairKey, type CrawlerNode } from '../shared/contracts/advert.js';
import type { LeaseMessage, AcceptAnswer } from '../shared/contracts/lease.js';
import type { ClaimAnswer, ClaimRequest, ClaimedAccount } from '../shared/contracts/accounts.js';
import {
  AccountBudget,
  AccountWait,
  hasPort,
  holderOf,
  noAccountMessage,
  portKeys,
} from './account-capacity.js';

/** What a crawler node receives to run one sub task. */
/** How long a claim or release is trusted over a database snapshot that may predate it. */
const RECENT_MS = 5_000;

export interface Refusal {
  reason: string;
  cannotRun: boolean;
}

/**
 * Per lease sent, undefined when the node took it, else why not. An answer
 * that does not cover every lease (a node of another version) is an error:
 * none of them counts as taken.
 */
export function refusalsOf(
  answer: AcceptAnswer | undefined,
  sent: number,
): (Refusal | undefined)[] {
  const results = answer?.results;
  if (!Array.isArray(results) || results.length !== sent)
    throw new Error(
      `answered for ${Array.isArray(results) ? results.length : 0} of ${sent} leases`,
    );
  return results.map((r) =>
    r?.accepted === true
      ? undefined
      : { reason: r?.reason ?? 'refused', cannotRun: r?.cannotRun === true },
  );
}

export interface DispatcherDeps {
  clock: Clock;
  nodes: () => CrawlerNode[];
  channelOf: (platform: string) => Channel;
  capOf: (platform: string) => number;
  leaseMs: number;
  /** How long due work that no live node can place waits before it fails (REGION_WAIT_MS). */
  regionWaitMs: number;
  /**
   * Atomically moves each sub task that is still pending to processing under
   * the lease (one token for the batch; a lease is its sub task id plus the
   * token). Returns the ids it claimed.
   */
  claim: (
    items: QueueItem[],
    nodeId: string,
    token: string,
    expiresAt: number,
  ) => Promise<Set<string>>;
  /**
   * Hands the leases to the node: per lease, undefined when taken, else why it
   * was refused. Throws when the node cannot be reached.
   */
  send: (nodeId: string, leases: LeaseMessage[]) => Promise<(Refusal | undefined)[]>;
  /** Gives a claimed lease back as a retryable failure (the node never got it). */
  giveBack: (lease: LeaseMessage, message: string) => Promise<void>;
  /** Fails a pending sub task that cannot be placed (no node runs its pair or serves its region). */
  failPending: (item: QueueItem, message: string) => Promise<void>;
  /**
   * `accounts.usable`: accounts free now per `platform|regionCode` ('' = without
   * region). Read once per pass, and only while web work is queued.
   */
  usableAccounts: () => Promise<Record<string, number>>;
  /** `accounts.claim`: one account held for one web sub task. */
  claimAccount: (request: ClaimRequest) => Promise<ClaimAnswer>;
  /** Gives back an account whose sub task never reached a node (verdict healthy, not prompted). */
  releaseAccount: (id: string, holder: string) => Promise<void>;
  /** How long a due web sub task waits for a usable account before it fails (ACCOUNT_WAIT_MS). */
  accountWaitMs: number;
  /**
   * When such a sub task fails: the platform's accounts by state for the
   * message ("2 accounts: 1 needs_human, 1 cooling until 18:40"); undefined
   * when the accounts service cannot say.
   */
  describeAccounts?: (platform: string, regionCode: string | null) => Promise<string | undefined>;
}

interface InFlight {
  node: string;
  platform: string;
  /** Web sub tasks: the region of their account (null: an account without region). */
  accountRegion?: string | null;
}

/** A web sub task placed with its account, before its lease is claimed and sent. */
interface WebPick {
  item: QueueItem;
  node: string;
  account: ClaimedAccount;
}

export class Dispatcher {
  readonly queue: FairQueue;
  private readonly inflight = new Map<string, InFlight>();
  private readonly perNode = new Map<string, number>();
  private readonly perPlatform = new Map<string, number>();
  /** Ids leased or released in the last few seconds, which a DB snapshot may not show yet. */
  private readonly recent = new Map<string, { at: number; leased: boolean; flight: InFlight }>();
  private pending: Promise<number> = Promise.resolve(0);
  /**
   * Nodes that refused a (platform, channel) pair they advertise (a node of
   * another build, or one whose driver set changed), until when they are not
   * offered that pair again. Without this a refused lease would be given
   * back, placed on the same node and refused again, forever.
   */
  private readonly cannotRun = new Map<string, number>();
  private readonly accountWait: AccountWait;

  constructor(private readonly d: DispatcherDeps) {
    this.queue = new FairQueue((item) => this.channelOf(item) === 'web');
    this.accountWait = new AccountWait(d.accountWaitMs);
  }

  private channelOf(item: QueueItem): Channel {
    return item.channel ?? this.d.channelOf(item.platform);
  }

  get inFlightCount(): number {
    return this.inflight.size;
  }

  busy(nodeId: string): number {
    return this.perNode.get(nodeId) ?? 0;
  }

  platformLoad(platform: string): number {
    return this.perPlatform.get(platform) ?? 0;
  }

  /**
   * Rebuilds the in-flight view from stored leases (on takeover and
   * periodically); `accountRegion` marks a web sub task running as an account
   * of that region (null: without region).
   */
  resetInFlight(
    leases: { id: string; node: string; platform: string; accountRegion?: string | null }[],
  ): void {
    const now = this.d.clock.now();
    for (const [id, r] of this.recent) if (now - r.at > RECENT_MS) this.recent.delete(id);
    this.inflight.clear();
    this.perNode.clear();
    this.perPlatform.clear();
    // A snapshot can predate the latest claims and releases: those stay as the events left them.
    for (const { id, ...flight } of leases) if (!this.recent.has(id)) this.track(id, flight, false);
    for (const [id, r] of this.recent) if (r.leased) this.track(id, r.flight, false);
  }

  isInFlight(id: string): boolean {
    return this.inflight.has(id);
  }

  /** The sub task left a node (result, failure or lost lease). */
  release(id: string): void {
    const flight = this.inflight.get(id);
    if (!flight) return;
    this.recent.set(id, { at: this.d.clock.now(), leased: false, flight });
    this.untrack(id, flight);
  }

  /**
   * One pass: takes due items in fair order while a node has room and the
   * platform is under its cap (a web item also needs a usable account), and
   * starts claiming them and sending the leases. Returns how many it picked;
   * `settled()` tells how many were sent.
   */
  async dispatch(): Promise<number> {
    const now = this.d.clock.now();
    const nodes = this.d.nodes();
    if (nodes.length === 0) return 0;
    // Unknown (the accounts service did not answer): web work waits this pass out.
    const accounts =
      this.queue.webSize > 0
        ? await this.d.usableAccounts().then(
            (counts) => new AccountBudget(counts),
            () => undefined,
          )
        : undefined;
    const picks: { item: QueueItem; node: string }[] = [];
    const webPicks: { item: QueueItem; node: string }[] = [];
    // Platform and region pairs that nothing can take in this pass: room only
    // shrinks while the pass picks, so one "no" holds for every later item of
    // the pair, and a full cluster costs one check per pair, not per item.
    const full = new Set<string>();
    for (;;) {
      let chosen: string | undefined;
      let web = false;
      const item = this.queue.take(now, (i) => {
        const channel = this.channelOf(i);
        web = channel === 'web';
        if (web && !this.accountFor(i, accounts, now)) return false;
        const pair = `${i.platform} ${channel} ${i.regionCode ?? ''}`;
        if (full.has(pair)) return false;
        const placement = {
          platform: i.platform,
          channel,
          regionCode: i.regionCode,
          lastNode: i.lastNode,
        };
        if (this.platformLoad(i.platform) < this.d.capOf(i.platform))
          chosen = pickNode(this.willing(nodes, placement, now), placement, (n) =>
            this.busy(n),
          )?.id;
        if (chosen === undefined) full.add(pair);
        return chosen !== undefined;
      });
      if (!item || !chosen) break;
      // A stale duplicate of work already leased: drop it, never touch that lease's slot.
      if (this.inflight.has(item.id)) continue;
      this.track(item.id, { node: chosen, platform: item.platform });
      if (web) {
        accounts!.take(item.platform, item.regionCode);
        webPicks.push({ item, node: chosen });
      } else picks.push({ item, node: chosen });
    }
    // One claim and one send per node: a pass after a burst of results or a
    // new batch picks dozens at once. Slots are already reserved, so the next
    // pass need not wait for these claims.
    const batches = [...groupBy(picks, (p) => p.node)].map(([node, group]) =>
      this.leaseBatch(
        group.map((p) => p.item),
        node,
        now,
      ),
    );
    if (webPicks.length > 0) batches.push(this.leaseWeb(webPicks, nodes, accounts!, now));
    this.pending = Promise.all(batches).then((sent) => sent.reduce((a, b) => a + b, 0));
    return picks.length + webPicks.length;
  }

  /** How many leases the latest pass sent, once its claims and sends are done. */
  settled(): Promise<number> {
    return this.pending;
  }

  /**
   * Whether the pass has an account left for a due web item; one that finds
   * none starts (or goes on) waiting for one.
   */
  private accountFor(item: QueueItem, accounts: AccountBudget | undefined, now: number): boolean {
    if (!accounts) return false;
    if (!accounts.available(item.platform, item.regionCode)) {
      this.accountWait.lacking(item, now);
      return false;
    }
    this.accountWait.seen(item.platform, item.regionCode, now);
    return true;
  }

  /**
   * Web items picked this pass: each claims an account (one at a time, so
   * each claim sees the room the previous ones left), moves to the node that
   * serves the account's proxy port, and the items are then leased per node
   * under one token, which the accounts' holders name.
   */
  private async leaseWeb(
    picks: { item: QueueItem; node: string }[],
    nodes: readonly CrawlerNode[],
    accounts: AccountBudget,
    now: number,
  ): Promise<number> {
    const lease = newLease(now, this.d.leaseMs);
    const placed: WebPick[] = [];
    for (const pick of picks) {
      const got = await this.placeWithAccount(pick, nodes, accounts, lease.token, now);
      if (got) placed.push(got);
    }
    const sent = await Promise.all(
      [...groupBy(placed, (p) => p.node)].map(([node, group]) =>
        this.leaseBatch(
          group.map((p) => p.item),
          node,
          now,
          lease,
          new Map(group.map((p) => [p.item.id, p.account])),
        ),
      ),
    );
    return sent.reduce((a, b) => a + b, 0);
  }

  /**
   * Claims an account for the item and finds the node that serves the
   * account's proxy port; the item holds a slot on the node the pass chose
   * until then. Without one it goes back to the queue (waiting for an account
   * when none was to be had).
   */
  private async placeWithAccount(
    pick: { item: QueueItem; node: string },
    nodes: readonly CrawlerNode[],
    accounts: AccountBudget,
    token: string,
    now: number,
  ): Promise<WebPick | undefined> {
    const { item } = pick;
    const holder = holderOf(item.id, token);
    const hasRoom = (n: CrawlerNode) =>
      n.capacity - this.busy(n.id) + (n.prefetch ?? 0) + (n.id === pick.node ? 1 : 0) > 0;
    let lacking = true;
    for (const region of accounts.candidates(item.platform, item.regionCode)) {
      // Accounts of a region run through one of its ports, on a node with room for them.
      const hosts =
        region === null
          ? []
          : this.able(
              nodes,
              { platform: item.platform, channel: 'web', regionCode: region, lastNode: null },
              now,
            ).filter(hasRoom);
      const ports = region === null ? [] : hosts.flatMap((n) => portKeys(n, region));
      if (region !== null && ports.length === 0) {
        lacking = false;
        continue;
      }
      const answer = await this.d
        .claimAccount({
          platform: item.platform,
          regionCode: region,
          holder,
          ports,
          avoid: item.lastAccount === null ? [] : [item.lastAccount],
        })
        .catch(() => undefined);
      if (!answer?.account) {
        if (answer) accounts.exhaust(item.platform, region);
        else lacking = false;
        continue;
      }
      const account = answer.account;
      const key = account.proxyKey;
      const node =
        key === null
          ? pick.node
          : (
              hosts.find((n) => n.id === pick.node && hasPort(n, key)) ??
              hosts.find((n) => hasPort(n, key))
            )?.id;
      if (node === undefined) {
        lacking = false;
        await this.d.releaseAccount(account.id, holder).catch(() => undefined);
        continue;
      }
      this.accountWait.seen(item.platform, account.regionCode, now);
      this.untrack(item.id);
      this.track(item.id, { node, platform: item.platform, accountRegion: account.regionCode });
      return { item, node, account };
    }
    this.untrack(item.id);
    this.recent.delete(item.id);
    if (lacking) this.accountWait.lacking(item, now);
    this.queue.add(item);
    return undefined;
  }

  /**
   * Claims the items for the node and sends it their leases; returns how many
   * it took. Web items come with the accounts claimed for them (under
   * `lease`'s token): an account whose item does not reach the node is given
   * back at once.
   */
  private async leaseBatch(
    items: QueueItem[],
    node: string,
    now: number,
    lease: Lease = newLease(now, this.d.leaseMs),
    accounts?: ReadonlyMap<string, ClaimedAccount>,
  ): Promise<number> {
    const { token, expiresAt } = lease;
    const giveBackAccount = async (id: string) => {
      const account = accounts?.get(id);
      if (account)
        await this.d.releaseAccount(account.id, holderOf(id, token)).catch(() => undefined);
    };
    const claimed = await this.d
      .claim(items, node, token, expiresAt)
      .catch(() => new Set<string>());
    const messages: LeaseMessage[] = [];
    const unclaimed: Promise<void>[] = [];
    for (const item of items) {
      if (!claimed.has(item.id)) {
        this.release(item.id);
        unclaimed.push(giveBackAccount(item.id));
        continue;
      }
      const message: LeaseMessage = {
        subTaskId: item.id,
        taskId: item.taskId,
        token,
        expiresAt,
        leaseMs: this.d.leaseMs,
        platform: item.platform,
        channel: this.channelOf(item),
        mode: item.mode,
        prompt: item.prompt,
        screenshot: item.screenshot,
        regionCode: item.regionCode,
        avoidProxy: item.lastProxy,
        attempt: item.attempts + 1,
      };
      const account = accounts?.get(item.id);
      if (account) message.account = { id: account.id, proxyKey: account.proxyKey };
      messages.push(message);
    }
    await Promise.all(unclaimed);
    if (messages.length === 0) return 0;
    const refusals = await this.d
      .send(node, messages)
      .catch((err: Error) => messages.map(() => ({ reason: err.message, cannotRun: false })));
    let taken = 0;
    await Promise.all(
      messages.map(async (message, i) => {
        const refusal = refusals[i];
        if (refusal === undefined) {
          taken += 1;
          return;
        }
        // Twice the wait: the work it refused must be able to wait out its full
        // wait without this node counting as able to run it again.
        if (refusal.cannotRun) {
          this.cannotRun.set(
            `${node} ${pairKey(message.platform, message.channel)}`,
            now + 2 * this.d.regionWaitMs,
          );
        }
        this.release(message.subTaskId);
        await giveBackAccount(message.subTaskId);
        await this.d.giveBack(
          message,
          `crawler node ${node} did not take the work: ${refusal.reason}`,
        );
      }),
    );
    return taken;
  }

  /**
   * The nodes that have not refused the placement's pair lately (pickNode and
   * capableNodes then check what they advertise). With no refusal on record,
   * the common case, the list itself.
   */
  private willing(
    nodes: readonly CrawlerNode[],
    p: Placement,
    now: number,
  ): readonly CrawlerNode[] {
    if (this.cannotRun.size === 0) return nodes;
    const pair = pairKey(p.platform, p.channel);
    return nodes.filter((n) => {
      const key = `${n.id} ${pair}`;
      const until = this.cannotRun.get(key);
      if (until === undefined) return true;
      if (until > now) return false;
      this.cannotRun.delete(key);
      return true;
    });
  }

  /** The nodes that can run the placement and have not refused its pair lately. */
  private able(nodes: readonly CrawlerNode[], p: Placement, now: number): CrawlerNode[] {
    return capableNodes(this.willing(nodes, p, now), p);
  }

  /**
   * Due sub tasks that no live node can place wait up to `regionWaitMs`, then
   * fail naming what is missing: a node that runs their platform over its
   * channel, or one that serves their region. While no crawler node is up at
   * all, work without a region waits as it would for busy nodes (a restart of
   * every node must not fail the queue). Web sub tasks that a node could run
   * but that found no usable account for `accountWaitMs` fail too.
   */
  async sweepUnplaceable(): Promise<number> {
    const now = this.d.clock.now();
    const nodes = this.d.nodes();
    // Accounts busy with a running sub task come back: their work is served.
    if (this.queue.webSize > 0)
      for (const f of this.inflight.values())
        if (f.accountRegion !== undefined) this.accountWait.seen(f.platform, f.accountRegion, now);
    const expired: { item: QueueItem; message: Promise<string> }[] = [];
    for (const item of this.queue.items()) {
      if (item.notBefore > now) continue;
      if (item.regionCode === null && nodes.length === 0) continue;
      const placement = {
        platform: item.platform,
        channel: this.channelOf(item),
        regionCode: item.regionCode,
        lastNode: null,
      };
      if (this.able(nodes, placement, now).length > 0) {
        delete item.waitingSince;
        if (placement.channel === 'web' && this.accountWait.expired(item, now))
          expired.push({ item, message: this.noAccount(item) });
        continue;
      }
      item.waitingSince ??= now;
      if (now - item.waitingSince < this.d.regionWaitMs) continue;
      const anyRegion = { ...placement, regionCode: null };
      const waited = `(waited ${Math.round(this.d.regionWaitMs / 1000)} s)`;
      const message =
        item.regionCode !== null && this.able(nodes, anyRegion, now).length > 0
          ? `no crawler node with an active proxy serves region ${item.regionCode} ${waited}`
          : `no live crawler node runs ${item.platform} on the ${placement.channel} channel ${waited}`;
      expired.push({ item, message: Promise.resolve(message) });
    }
    for (const { item } of expired) this.queue.remove(item.id);
    for (const { item, message } of expired) await this.d.failPending(item, await message);
    return expired.length;
  }

  /** Why a web sub task failed for want of an account, with its platform's accounts by state. */
  private async noAccount(item: QueueItem): Promise<string> {
    const states = await this.d
      .describeAccounts?.(item.platform, item.regionCode)
      .catch(() => undefined);
    const waited = `waited ${Math.round(this.d.accountWaitMs / 1000)} s`;
    return noAccountMessage(item.platform, item.regionCode, states ?? waited);
  }

  /** `fresh`: a claim made now, which outranks snapshots for a few seconds. */
  private track(id: string, flight: InFlight, fresh = true): void {
    if (this.inflight.has(id)) return;
    if (fresh) this.recent.set(id, { at: this.d.clock.now(), leased: true, flight });
    this.inflight.set(id, flight);
    bump(this.perNode, flight.node, 1);
    bump(this.perPlatform, flight.platform, 1);
  }

  /** Frees the slot the sub task held (the caller records why). */
  private untrack(id: string, flight = this.inflight.get(id)): void {
    if (!flight) return;
    this.inflight.delete(id);
    bump(this.perNode, flight.node, -1);
    bump(this.perPlatform, flight.platform, -1);
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}
