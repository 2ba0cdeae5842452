/**
 * Placing web sub tasks: each runs as one account, claimed for it alone, on
 * the crawler node that serves the account's proxy port. A pass picks web
 * items as far as usable accounts and node room allow (holding a slot on the
 * node it chose), then claims their accounts one at a time, so each claim
 * offers only the ports of nodes that still have room, and moves each item
 * to the node of its account's port.
 */
import type { CrawlerNode } from '../shared/contracts/advert.js';
import type { QueueItem } from '../shared/contracts/events.js';
import type { ClaimAnswer, ClaimRequest, ClaimedAccount } from '../shared/contracts/accounts.js';
import type { Placement } from './nodes.js';
import type { Slots } from './slots.js';
import { AccountBudget, AccountWait, hasPort, holderOf, portKeys } from './account-capacity.js';

export interface AccountDeps {
  /**
   * Whether the platform's web channel runs as accounts: every real consumer
   * site; a simulated one (the sandboxes) needs no login.
   */
  runsAsAccounts: (platform: string) => boolean;
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

/** A web sub task placed with its account, before its lease is claimed and sent. */
export interface WebPick {
  item: QueueItem;
  node: string;
  account: ClaimedAccount;
}

export class WebPlacement {
  readonly wait: AccountWait;

  constructor(
    private readonly d: AccountDeps,
    private readonly slots: Slots,
    /** The nodes that can run the placement (pair, region, no recent refusal). */
    private readonly able: (nodes: readonly CrawlerNode[], p: Placement) => CrawlerNode[],
  ) {
    this.wait = new AccountWait(d.accountWaitMs);
  }

  /** The accounts this pass may claim; undefined when the accounts service did not answer. */
  budget(): Promise<AccountBudget | undefined> {
    return this.d.usableAccounts().then(
      (counts) => new AccountBudget(counts),
      () => undefined,
    );
  }

  /**
   * Whether the pass has an account left for a due web item; one that finds
   * none starts (or goes on) waiting for one. Unknown accounts (the service
   * did not answer) are no shortage: the item just waits for the next pass.
   * A count is not yet an account: only a claim (or `waitsForRoom`) tells
   * that one is really there for the item.
   */
  hasAccount(item: QueueItem, accounts: AccountBudget | undefined, now: number): boolean {
    if (!accounts) return false;
    if (accounts.available(item.platform, item.regionCode)) return true;
    this.wait.lacking(item, now);
    return false;
  }

  /** An item with accounts to claim but no node with room: it waits for room, not accounts. */
  waitsForRoom(item: QueueItem, now: number): void {
    this.wait.seen(item.platform, item.regionCode, now);
  }

  /**
   * Claims an account for the item (holder: the item and `token`) and finds
   * the node that serves the account's proxy port; the item holds its slot on
   * the node the pass chose until then. Undefined, with the slot freed, when
   * it got none (then it waits for an account if none was to be had, rather
   * than room or an answer).
   */
  async place(
    pick: { item: QueueItem; node: string },
    nodes: readonly CrawlerNode[],
    accounts: AccountBudget,
    token: string,
    now: number,
  ): Promise<WebPick | undefined> {
    const { item } = pick;
    const holder = holderOf(item.id, token);
    const hasRoom = (n: CrawlerNode) =>
      n.capacity - this.slots.busy(n.id) + (n.prefetch ?? 0) + (n.id === pick.node ? 1 : 0) > 0;
    let lacking = true;
    for (const region of accounts.candidates(item.platform, item.regionCode)) {
      // An account of a region runs through one of its ports, on a node with room for it.
      const hosts =
        region === null
          ? []
          : this.able(nodes, {
              platform: item.platform,
              channel: 'web',
              regionCode: region,
              lastNode: null,
            }).filter(hasRoom);
      const ports = region === null ? [] : hosts.flatMap((n) => portKeys(n, region));
      if (region !== null && ports.length === 0) {
        lacking = false;
        continue;
      }
      const avoid = item.lastAccount === null ? [] : [item.lastAccount];
      const answer = await this.d
        .claimAccount({ platform: item.platform, regionCode: region, holder, ports, avoid })
        .catch(() => undefined);
      if (!answer?.account) {
        // The account this item avoids may well be the one the next item gets.
        if (answer && avoid.length === 0) accounts.exhaust(item.platform, region);
        if (!answer) lacking = false;
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
      this.wait.seen(item.platform, account.regionCode, now);
      this.slots.move(item.id, {
        node,
        platform: item.platform,
        accountRegion: account.regionCode,
      });
      return { item, node, account };
    }
    this.slots.drop(item.id);
    if (lacking) this.wait.lacking(item, now);
    return undefined;
  }
}
