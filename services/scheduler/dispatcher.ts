/**
 * The active scheduler's working state: the fair queue of pending sub tasks,
 * what is in flight on which node and platform, and one dispatch pass that
 * leases as much as nodes, platform caps and due times allow. All I/O is
 * injected, so the policy is tested without servers.
 */
import type { Clock } from '../shared/clock.js';
import { groupBy } from '../shared/group-by.js';
import { FairQueue } from './fair-queue.js';
import { type QueueItem } from '../shared/contracts/events.js';
import { newLease, type Lease } from '../shared/claim.js';
import { capableNodes, pickNode, type Placement } from './nodes.js';
import { pairKey, type CrawlerNode } from '../shared/contracts/advert.js';
import type { LeaseMessage, AcceptAnswer } from '../shared/contracts/lease.js';
import type { ClaimedAccount } from '../shared/contracts/accounts.js';
import { type AccountBudget, holderOf, noAccountMessage } from './account-capacity.js';
import { Slots, type Flight } from './slots.js';
import { WebPlacement, type AccountDeps, type WebPick } from './web-placement.js';

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

/**
 * moleculer's error types for a call that went out and got no answer: it timed
 * out, or the node left while it was under way.
 */
const UNANSWERED = new Set(['REQUEST_TIMEOUT', 'REQUEST_REJECTED']);

/** A failed send that may still have reached the node (matched on the error's type). */
function unanswered(err: unknown): boolean {
  return UNANSWERED.has((err as { type?: unknown } | null)?.type as string);
}

export interface DispatcherDeps extends AccountDeps {
  clock: Clock;
  nodes: () => CrawlerNode[];
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
   * was refused. Throws when the node cannot be reached, or when the call went
   * out and its answer never came (see `unanswered`).
   */
  send: (nodeId: string, leases: LeaseMessage[]) => Promise<(Refusal | undefined)[]>;
  /** Gives a claimed lease back as a retryable failure (the node never got it). */
  giveBack: (lease: LeaseMessage, message: string) => Promise<void>;
  /** Fails a pending sub task that cannot be placed (no node runs its pair or serves its region). */
  failPending: (item: QueueItem, message: string) => Promise<void>;
  /** A pass's claims and sends failed (MongoDB gone a moment): its leases expire and run again. */
  warn: (message: string, err: unknown) => void;
}

export class Dispatcher {
  readonly queue: FairQueue;
  private readonly slots: Slots;
  /**
   * The claims and sends of passes still under way. Nobody awaits a pass's sends but
   * `settled()`, so each is caught where it is made: a rejection here would be unhandled.
   */
  private readonly sending = new Set<Promise<number>>();
  /**
   * Nodes that refused a (platform, channel) pair they advertise (a node of
   * another build, or one whose driver set changed), until when they are not
   * offered that pair again. Without this a refused lease would be given
   * back, placed on the same node and refused again, forever.
   */
  private readonly cannotRun = new Map<string, number>();
  private readonly web: WebPlacement;

  constructor(private readonly d: DispatcherDeps) {
    this.queue = new FairQueue((item) => this.needsAccount(item));
    this.slots = new Slots(d.clock);
    this.web = new WebPlacement(d, this.slots, (nodes, p) => this.able(nodes, p, d.clock.now()));
  }

  private needsAccount(item: QueueItem): boolean {
    return item.channel === 'web' && this.d.runsAsAccounts(item.platform);
  }

  get inFlightCount(): number {
    return this.slots.size;
  }

  busy(nodeId: string): number {
    return this.slots.busy(nodeId);
  }

  platformLoad(platform: string): number {
    return this.slots.platformLoad(platform);
  }

  /**
   * Rebuilds the in-flight view from stored leases (on takeover and
   * periodically); `accountRegion` marks a web sub task running as an account
   * of that region (null: without region).
   */
  resetInFlight(leases: ({ id: string } & Flight)[]): void {
    this.slots.reset(leases);
  }

  isInFlight(id: string): boolean {
    return this.slots.has(id);
  }

  /** The sub task left a node (result, failure or lost lease). */
  release(id: string): void {
    this.slots.release(id);
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
    const accounts = this.queue.accountBoundSize > 0 ? await this.web.budget() : undefined;
    const picks: { item: QueueItem; node: string }[] = [];
    const webPicks: { item: QueueItem; node: string }[] = [];
    // Platform, channel and region triples that nothing can take in this pass:
    // room only shrinks while the pass picks, so one "no" holds for every later
    // item of the triple, and a full cluster costs one check per triple, not per item.
    const full = new Set<string>();
    for (;;) {
      let chosen: string | undefined;
      let asAccount = false;
      const item = this.queue.take(now, (i) => {
        const channel = i.channel;
        asAccount = channel === 'web' && this.d.runsAsAccounts(i.platform);
        if (asAccount && !this.web.hasAccount(i, accounts, now)) return false;
        const pair = `${i.platform} ${channel} ${i.regionCode ?? ''}`;
        if (full.has(pair)) {
          if (asAccount) this.web.waitsForRoom(i, now);
          return false;
        }
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
        if (chosen !== undefined) return true;
        full.add(pair);
        if (asAccount) this.web.waitsForRoom(i, now);
        return false;
      });
      if (!item || !chosen) break;
      // A stale duplicate of work already leased: drop it, never touch that lease's slot.
      if (this.slots.has(item.id)) continue;
      this.slots.add(item.id, { node: chosen, platform: item.platform });
      if (asAccount) {
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
    const sending = Promise.all(batches).then(
      (sent) => sent.reduce((a, b) => a + b, 0),
      (err: unknown) => {
        this.d.warn('sending leases failed', err);
        return 0;
      },
    );
    this.sending.add(sending);
    void sending.finally(() => this.sending.delete(sending));
    return picks.length + webPicks.length;
  }

  /** How many leases the passes under way sent, once their claims and sends are done. */
  async settled(): Promise<number> {
    const sent = await Promise.all(this.sending);
    return sent.reduce((a, b) => a + b, 0);
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
      const got = await this.web.place(pick, nodes, accounts, lease.token, now);
      if (got) placed.push(got);
      else this.queue.add(pick.item);
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
        channel: item.channel,
        mode: item.mode,
        prompt: item.prompt,
        screenshot: item.screenshot,
        regionCode: item.regionCode,
        avoidProxy: item.lastProxy,
        attempt: item.attempts + 1,
      };
      if (item.keywords) message.keywords = item.keywords;
      const account = accounts?.get(item.id);
      if (account) message.account = { id: account.id, proxyKey: account.proxyKey };
      messages.push(message);
    }
    await Promise.all(unclaimed);
    if (messages.length === 0) return 0;
    let refusals: (Refusal | undefined)[];
    try {
      refusals = await this.d.send(node, messages);
    } catch (err) {
      // The node may have taken them and asked the platform: they stay its leases, each
      // attempt spent, and its report, its disconnect or the lease's expiry settles them.
      // Given back, an attempt that reached the platform would go uncounted.
      if (unanswered(err)) return messages.length;
      refusals = messages.map(() => ({ reason: (err as Error).message, cannotRun: false }));
    }
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
    if (this.queue.accountBoundSize > 0)
      for (const f of this.slots.values())
        if (f.accountRegion !== undefined) this.web.wait.seen(f.platform, f.accountRegion, now);
    const expired: { item: QueueItem; message: Promise<string> }[] = [];
    for (const item of this.queue.items()) {
      if (item.notBefore > now) continue;
      if (item.regionCode === null && nodes.length === 0) continue;
      const placement = {
        platform: item.platform,
        channel: item.channel,
        regionCode: item.regionCode,
        lastNode: null,
      };
      if (this.able(nodes, placement, now).length > 0) {
        delete item.waitingSince;
        if (this.needsAccount(item) && this.web.wait.expired(item, now))
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
}
