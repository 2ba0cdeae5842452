/**
 * Web-channel capacity, pure: a web sub task runs as one account, so the
 * accounts free now (per platform and region) bound how many web sub tasks a
 * dispatch pass may try to place, and a sub task that finds none for
 * ACCOUNT_WAIT_MS fails. Work of a platform and region counts as still served
 * while one of its accounts is usable, claimed or running a sub task: an
 * account that is merely busy comes back, one that is broken does not.
 */
import type { CrawlerNode } from '../shared/contracts/advert.js';
import type { QueueItem } from '../shared/contracts/events.js';
import { servesRegion } from '../shared/proxy-ports.js';
import type { AccountState } from '../shared/contracts/accounts.js';

/** Who holds an account claimed for a sub task: the sub task and its lease token. */
export const holderOf = (subTaskId: string, token: string): string => `${subTaskId} ${token}`;

/** `platform|regionCode` as `accounts.usable` counts (regionCode '' = an account without region). */
const usableKey = (platform: string, regionCode: string | null): string =>
  `${platform}|${regionCode ?? ''}`;

/** The accounts one dispatch pass may still claim, from one `accounts.usable` answer. */
export class AccountBudget {
  private readonly counts = new Map<string, number>();
  private readonly perPlatform = new Map<string, number>();

  constructor(counts: Record<string, number>) {
    for (const [key, n] of Object.entries(counts)) {
      if (!(n > 0)) continue;
      this.counts.set(key, n);
      const platform = key.slice(0, key.lastIndexOf('|'));
      this.perPlatform.set(platform, (this.perPlatform.get(platform) ?? 0) + n);
    }
  }

  /** Whether a sub task of the region (null: any region) may still try to claim an account. */
  available(platform: string, regionCode: string | null): boolean {
    return regionCode === null
      ? (this.perPlatform.get(platform) ?? 0) > 0
      : (this.counts.get(usableKey(platform, regionCode)) ?? 0) > 0;
  }

  /** One account of the pass is spoken for. */
  take(platform: string, regionCode: string | null): void {
    this.add(platform, -1);
    if (regionCode !== null) this.count(usableKey(platform, regionCode), -1);
  }

  /**
   * The account regions to claim from, in order (null: accounts without
   * region): the sub task's own region, or for a sub task without region
   * every region with usable accounts, those without region first, then the
   * most. Each claim then carries the ports of one region only.
   */
  candidates(platform: string, regionCode: string | null): (string | null)[] {
    if (regionCode !== null) return [regionCode];
    const prefix = `${platform}|`;
    return [...this.counts]
      .filter(([key, n]) => key.startsWith(prefix) && n > 0)
      .sort(([a, x], [b, y]) => (a === prefix ? -1 : b === prefix ? 1 : y - x))
      .map(([key]) => key.slice(prefix.length) || null);
  }

  /** A claim found no account of that region: the rest of the pass does not ask again. */
  exhaust(platform: string, accountRegion: string | null): void {
    const key = usableKey(platform, accountRegion);
    this.add(platform, -(this.counts.get(key) ?? 0));
    this.counts.delete(key);
  }

  private count(key: string, by: number): void {
    const n = (this.counts.get(key) ?? 0) + by;
    if (n > 0) this.counts.set(key, n);
    else this.counts.delete(key);
  }

  private add(platform: string, by: number): void {
    this.perPlatform.set(platform, Math.max(0, (this.perPlatform.get(platform) ?? 0) + by));
  }
}

/** The wait of web sub tasks for an account (ACCOUNT_WAIT_MS). */
export class AccountWait {
  /** Per `platform|region` ('*': any region), when an account for it was last usable or in use. */
  private readonly served = new Map<string, number>();

  constructor(private readonly waitMs: number) {}

  /** An account of the region (null: without region) is usable, claimed or running, now. */
  seen(platform: string, accountRegion: string | null, now: number): void {
    this.served.set(`${platform}|*`, now);
    if (accountRegion !== null) this.served.set(`${platform}|${accountRegion}`, now);
  }

  /** The due item found no account. */
  lacking(item: QueueItem, now: number): void {
    item.accountWaitSince ??= now;
  }

  /** Whether the item has gone a full wait without any account it could use. */
  expired(item: QueueItem, now: number): boolean {
    if (item.accountWaitSince === undefined) return false;
    const served = this.served.get(`${item.platform}|${item.regionCode ?? '*'}`) ?? 0;
    return now - Math.max(item.accountWaitSince, served) >= this.waitMs;
  }
}

/** The failure of a web sub task that found no account in time. */
export function noAccountMessage(
  platform: string,
  regionCode: string | null,
  detail: string,
): string {
  const where = regionCode === null ? 'in any region' : `in region ${regionCode}`;
  return `no usable ${platform} web account ${where} (${detail})`;
}

/** Keys of the node's (active) proxy ports that serve the region. */
export function portKeys(node: CrawlerNode, regionCode: string): string[] {
  return (node.proxyPorts ?? []).filter((p) => servesRegion(p, regionCode)).map((p) => p.key);
}

/** Whether the node has the (active) proxy port. */
export const hasPort = (node: CrawlerNode, key: string): boolean =>
  (node.proxyPorts ?? []).some((p) => p.key === key);

/** What the scheduler reads of an account in `accounts.list`, to say why none was usable. */
export interface AccountRow {
  regionCode: string | null;
  state: AccountState;
  coolUntil: number | null;
  /** The sub task running on it, while one does. */
  holder: string | null;
  /** When pacing, quota or cooling next allow a prompt; null: now. */
  availableAt: number | null;
  /** Whether a login is stored. */
  hasState: boolean;
}

/**
 * The accounts of a region (null: all of the platform's) by state, for the
 * failure of a sub task that found none usable: "2 accounts: 1 needs_human,
 * 1 cooling until 18:40" (times UTC, the earliest of a group).
 */
export function accountStates(
  rows: readonly AccountRow[],
  regionCode: string | null,
  now: number,
): string {
  const mine = rows.filter((r) => regionCode === null || r.regionCode === regionCode);
  if (mine.length === 0) return 'no accounts';
  const groups = new Map<string, { n: number; until: number | null }>();
  for (const r of mine) {
    const [label, until] = rowState(r, now);
    const g = groups.get(label) ?? { n: 0, until: null };
    g.n += 1;
    if (until !== null) g.until = g.until === null ? until : Math.min(g.until, until);
    groups.set(label, g);
  }
  const parts = [...groups].map(
    ([label, g]) => `${g.n} ${label}${g.until === null ? '' : ` until ${clockTime(g.until)}`}`,
  );
  return `${mine.length} account${mine.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

function rowState(r: AccountRow, now: number): [string, number | null] {
  if (!r.hasState) return ['without a stored login', null];
  if (r.state === 'cooling' && (r.coolUntil ?? 0) > now) return ['cooling', r.coolUntil];
  if (r.state !== 'healthy' && r.state !== 'cooling') return [r.state, null];
  if (r.holder !== null) return ['in use', null];
  if (r.availableAt !== null && r.availableAt > now)
    return ['resting (gap or quota)', r.availableAt];
  return ['usable but not on a live proxy port', null];
}

const clockTime = (ms: number): string => new Date(ms).toISOString().slice(11, 16);
