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
import { newLease } from '../shared/claim.js';
import { capableNodes, pickNode, type Placement } from './nodes.js';
import { pairKey, type CrawlerNode } from '../shared/contracts/advert.js';
import type { LeaseMessage, AcceptAnswer } from '../shared/contracts/lease.js';

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
  /** The platform's active channel: for queue items that name none (stored before channels). */
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
}

interface InFlight {
  node: string;
  platform: string;
}

export class Dispatcher {
  readonly queue = new FairQueue();
  private readonly inflight = new Map<string, InFlight>();
  private readonly perNode = new Map<string, number>();
  private readonly perPlatform = new Map<string, number>();
  /** Ids leased or released in the last few seconds, which a DB snapshot may not show yet. */
  private readonly recent = new Map<
    string,
    { at: number; leased: boolean; node: string; platform: string }
  >();
  private pending: Promise<number> = Promise.resolve(0);
  /**
   * Nodes that refused a (platform, channel) pair they advertise (a node of
   * another build, or one whose driver set changed), until when they are not
   * offered that pair again. Without this a refused lease would be given
   * back, placed on the same node and refused again, forever.
   */
  private readonly cannotRun = new Map<string, number>();

  constructor(private readonly d: DispatcherDeps) {}

  get inFlightCount(): number {
    return this.inflight.size;
  }

  busy(nodeId: string): number {
    return this.perNode.get(nodeId) ?? 0;
  }

  platformLoad(platform: string): number {
    return this.perPlatform.get(platform) ?? 0;
  }

  /** Rebuilds the in-flight view from stored leases (on takeover and periodically). */
  resetInFlight(leases: { id: string; node: string; platform: string }[]): void {
    const now = this.d.clock.now();
    for (const [id, r] of this.recent) if (now - r.at > RECENT_MS) this.recent.delete(id);
    this.inflight.clear();
    this.perNode.clear();
    this.perPlatform.clear();
    // A snapshot can predate the latest claims and releases: those stay as the events left them.
    for (const l of leases) if (!this.recent.has(l.id)) this.track(l.id, l.node, l.platform, false);
    for (const [id, r] of this.recent) if (r.leased) this.track(id, r.node, r.platform, false);
  }

  isInFlight(id: string): boolean {
    return this.inflight.has(id);
  }

  /** The sub task left a node (result, failure or lost lease). */
  release(id: string): void {
    const f = this.inflight.get(id);
    if (!f) return;
    this.recent.set(id, {
      at: this.d.clock.now(),
      leased: false,
      node: f.node,
      platform: f.platform,
    });
    this.inflight.delete(id);
    bump(this.perNode, f.node, -1);
    bump(this.perPlatform, f.platform, -1);
  }

  /**
   * One pass: takes due items in fair order while a node has room and the
   * platform is under its cap, and starts claiming them and sending the
   * leases. Returns how many it picked; `settled()` tells how many were sent.
   */
  async dispatch(): Promise<number> {
    const now = this.d.clock.now();
    const nodes = this.d.nodes();
    if (nodes.length === 0) return 0;
    const picks: { item: QueueItem; node: string }[] = [];
    // Platform, channel and region triples that nothing can take in this pass:
    // room only shrinks while the pass picks, so one "no" holds for every later
    // item of the triple, and a full cluster costs one check per triple, not per item.
    const full = new Set<string>();
    for (;;) {
      let chosen: string | undefined;
      const item = this.queue.take(now, (i) => {
        const channel = this.channelOf(i);
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
      this.track(item.id, chosen, item.platform);
      picks.push({ item, node: chosen });
    }
    // One claim and one send per node: a pass after a burst of results or a
    // new batch picks dozens at once. Slots are already reserved, so the next
    // pass need not wait for these claims.
    this.pending = Promise.all(
      [...groupBy(picks, (p) => p.node)].map(([node, group]) =>
        this.leaseBatch(
          group.map((p) => p.item),
          node,
          now,
        ),
      ),
    ).then((sent) => sent.reduce((a, b) => a + b, 0));
    return picks.length;
  }

  /** How many leases the latest pass sent, once its claims and sends are done. */
  settled(): Promise<number> {
    return this.pending;
  }

  /** Claims the items for the node and sends it their leases; returns how many it took. */
  private async leaseBatch(items: QueueItem[], node: string, now: number): Promise<number> {
    const { token, expiresAt } = newLease(now, this.d.leaseMs);
    const claimed = await this.d
      .claim(items, node, token, expiresAt)
      .catch(() => new Set<string>());
    const messages: LeaseMessage[] = [];
    for (const item of items) {
      if (!claimed.has(item.id)) {
        this.release(item.id);
        continue;
      }
      messages.push({
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
      });
    }
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
   * every node must not fail the queue).
   */
  async sweepUnplaceable(): Promise<number> {
    const now = this.d.clock.now();
    const nodes = this.d.nodes();
    const expired: { item: QueueItem; message: string }[] = [];
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
      expired.push({ item, message });
    }
    for (const { item, message } of expired) {
      this.queue.remove(item.id);
      await this.d.failPending(item, message);
    }
    return expired.length;
  }

  /** The sub task's own channel; the platform's active one for items that name none. */
  private channelOf(item: QueueItem): Channel {
    return item.channel ?? this.d.channelOf(item.platform);
  }

  /** `fresh`: a claim made now, which outranks snapshots for a few seconds. */
  private track(id: string, node: string, platform: string, fresh = true): void {
    if (this.inflight.has(id)) return;
    if (fresh) this.recent.set(id, { at: this.d.clock.now(), leased: true, node, platform });
    this.inflight.set(id, { node, platform });
    bump(this.perNode, node, 1);
    bump(this.perPlatform, platform, 1);
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}
