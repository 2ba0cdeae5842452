/**
 * The rules of an account's life, pure: when it may be claimed (state, hold,
 * pacing gap, quota window, region, proxy port), what a verdict makes of it,
 * how the next prompt is paced, which proxy port it is pinned to, and the
 * locale and time zone its browser context shows. store.ts runs them.
 */
import type { AccountState, AccountVerdict } from '../shared/contracts/accounts.js';
import type { AccountDoc } from './models.js';
import type { Pacing, Quota } from './pacing.js';

type Filter = Record<string, unknown>;

/** What a claim asks for beyond "usable now". */
export interface Wanted {
  platform: string;
  /** null: any region. */
  regionCode: string | null;
  /** Proxy ports (`host:port`) of the region that live nodes serve. */
  ports: readonly string[];
  avoid: readonly string[];
}

type Usability = Pick<
  AccountDoc,
  'state' | 'coolUntil' | 'stateCipher' | 'holder' | 'heldUntil' | 'nextUseAt' | 'usage'
>;

/** Prompts the account may still send in the current window; null: no quota. */
export function quotaLeft(usage: readonly number[], now: number, quota: Quota | null) {
  if (!quota) return null;
  const inWindow = usage.filter((t) => t > now - quota.perMs).length;
  return Math.max(0, quota.prompts - inWindow);
}

/** Whether the account could be claimed now (any region, any port). */
export function isUsable(a: Usability, now: number, pacing: Pacing): boolean {
  return (
    (a.state === 'healthy' || (a.state === 'cooling' && (a.coolUntil ?? 0) <= now)) &&
    a.stateCipher !== null &&
    (a.holder === null || (a.heldUntil ?? 0) < now) &&
    a.nextUseAt <= now &&
    quotaLeft(a.usage, now, pacing.quota) !== 0
  );
}

/**
 * The MongoDB filter that matches exactly what `isUsable` accepts, plus the
 * claim's platform, region, ports and accounts to avoid. `usage` is kept
 * newest first, so the quota is full when its `prompts`-th entry is still
 * inside the window.
 */
export function claimFilter(w: Wanted, now: number, pacing: Pacing): Filter {
  const and: Filter[] = [
    { $or: [{ state: 'healthy' }, { state: 'cooling', coolUntil: { $lte: now } }] },
    { $or: [{ holder: null }, { heldUntil: { $lt: now } }] },
    // An account with a region runs through a port of it; one without runs direct.
    {
      $or: [
        { regionCode: null },
        { proxyKey: { $in: [...w.ports] } },
        ...(w.ports.length > 0 ? [{ proxyKey: null }] : []),
      ],
    },
  ];
  if (pacing.quota) {
    const nth = `usage.${pacing.quota.prompts - 1}`;
    and.push({
      $or: [{ [nth]: { $exists: false } }, { [nth]: { $lte: now - pacing.quota.perMs } }],
    });
  }
  return {
    platform: w.platform,
    stateCipher: { $ne: null },
    nextUseAt: { $lte: now },
    ...(w.regionCode === null ? {} : { regionCode: w.regionCode }),
    ...(w.avoid.length > 0 ? { _id: { $nin: [...w.avoid] } } : {}),
    $and: and,
  };
}

/** The port a newly claimed regional account is pinned to: the one fewest accounts use. */
export function leastUsedPort(
  ports: readonly string[],
  pinned: readonly string[],
): string | undefined {
  const uses = new Map(ports.map((p) => [p, 0]));
  for (const p of pinned) if (uses.has(p)) uses.set(p, uses.get(p)! + 1);
  let best: string | undefined;
  for (const [port, n] of uses) if (best === undefined || n < uses.get(best)!) best = port;
  return best;
}

/** The earliest next prompt: the gap, stretched by up to `jitter` of itself (random in [0, 1)). */
export function nextUseAt(now: number, gapMs: number, jitter: number, random: number): number {
  return now + Math.round(gapMs * (1 + random * jitter));
}

/** The state a verdict leaves; an operator's `disabled` always stays. */
export function stateAfter(current: AccountState, verdict: AccountVerdict): AccountState {
  return current === 'disabled' ? 'disabled' : verdict.state;
}

export interface Outcome {
  verdict: AccountVerdict;
  prompted: boolean;
  /** The stored screenshot of a needs_human verdict. */
  screenshotId: string | null;
}

/** The fields a release sets (the hold is freed; storage state apart). */
export function afterRelease(
  a: Pick<AccountDoc, 'state' | 'usage' | 'nextUseAt' | 'lastUsedAt'>,
  o: Outcome,
  now: number,
  pacing: Pacing,
  jitter: number,
  random: number,
): Partial<AccountDoc> {
  const v = o.verdict;
  const state = stateAfter(a.state, v);
  const fields: Partial<AccountDoc> = {
    holder: null,
    heldUntil: null,
    state,
    coolUntil: v.state === 'cooling' ? v.untilMs : null,
    reason: v.state === 'healthy' ? null : v.reason,
    humanKind: v.state === 'needs_human' ? (v.kind ?? 'login_wall') : null,
    screenshotId: v.state === 'needs_human' ? o.screenshotId : null,
  };
  if (o.prompted) {
    fields.lastUsedAt = now;
    fields.nextUseAt = nextUseAt(now, pacing.gapMs, jitter, random);
    fields.usage = pacing.quota
      ? [now, ...a.usage.filter((t) => t > now - pacing.quota!.perMs)].sort((x, y) => y - x)
      : [];
  }
  return fields;
}

/**
 * Whether a release may store the storage state its run left: never with a
 * needs_human verdict (a walled page's state is the logged-out one), nor on an
 * account a person is needed for unless the run answered. The last good login
 * stays until a person logs in again (`account login` / `import`).
 */
export function keepsRunState(current: AccountState, verdict: AccountVerdict): boolean {
  if (verdict.state === 'needs_human') return false;
  return current !== 'needs_human' || verdict.state === 'healthy';
}

/** When the account may next be claimed, as far as pacing, quota and cooling say; null: now. */
export function availableAt(
  a: Pick<AccountDoc, 'state' | 'coolUntil' | 'nextUseAt' | 'usage'>,
  now: number,
  pacing: Pacing,
): number | null {
  let at = a.nextUseAt;
  if (a.state === 'cooling' && a.coolUntil !== null) at = Math.max(at, a.coolUntil);
  if (pacing.quota && quotaLeft(a.usage, now, pacing.quota) === 0) {
    const inWindow = a.usage.filter((t) => t > now - pacing.quota!.perMs);
    at = Math.max(at, inWindow[pacing.quota.prompts - 1]! + pacing.quota.perMs);
  }
  return at > now ? at : null;
}

export interface Identity {
  locale: string;
  timezoneId: string;
}

/** Hong Kong, Macao and Taiwan keep their own; the rest of China and no region: mainland. */
const BY_PROVINCE: Readonly<Record<string, Identity>> = {
  '81': { locale: 'zh-HK', timezoneId: 'Asia/Hong_Kong' },
  '82': { locale: 'zh-MO', timezoneId: 'Asia/Macau' },
  '71': { locale: 'zh-TW', timezoneId: 'Asia/Taipei' },
};
const MAINLAND: Identity = { locale: 'zh-CN', timezoneId: 'Asia/Shanghai' };

/** The browser locale and time zone of an account in a region (6-digit city-lookup code). */
export function identityFor(regionCode: string | null): Identity {
  return (regionCode !== null && BY_PROVINCE[regionCode.slice(0, 2)]) || MAINLAND;
}

type Blockable = Pick<
  AccountDoc,
  | '_id'
  | 'state'
  | 'coolUntil'
  | 'stateCipher'
  | 'holder'
  | 'heldUntil'
  | 'nextUseAt'
  | 'usage'
  | 'regionCode'
  | 'proxyKey'
>;

/** Why this account cannot take the claim, in an operator's words; undefined: it can. */
export function blocker(a: Blockable, w: Wanted, now: number, pacing: Pacing): string | undefined {
  if (a.state === 'disabled' || a.state === 'needs_human') return a.state;
  if (a.state === 'cooling' && (a.coolUntil ?? 0) > now) return 'cooling';
  if (a.stateCipher === null) return 'never logged in';
  if (a.holder !== null && (a.heldUntil ?? 0) >= now) return 'busy';
  if (quotaLeft(a.usage, now, pacing.quota) === 0) return 'quota used up';
  if (a.nextUseAt > now) return 'pacing gap';
  if (w.avoid.includes(a._id)) return 'used by the previous attempt';
  if (a.regionCode !== null && a.proxyKey === null && w.ports.length === 0) return 'no proxy port';
  if (a.regionCode !== null && a.proxyKey !== null && !w.ports.includes(a.proxyKey)) {
    return 'its proxy port is down';
  }
  return undefined;
}

/** The reason of an empty claim: `no usable kimi web account in region 310100 (2 accounts: 1 busy, 1 cooling)`. */
export function noneUsable(
  accounts: readonly Blockable[],
  w: Wanted,
  now: number,
  pacing: Pacing,
): string {
  const where = w.regionCode === null ? '' : ` in region ${w.regionCode}`;
  const counts = new Map<string, number>();
  for (const a of accounts) {
    const why = blocker(a, w, now, pacing) ?? 'just taken';
    counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  const parts = [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([why, n]) => `${n} ${why}`)
    .join(', ');
  const summary = accounts.length === 0 ? 'no accounts' : `${accounts.length} accounts: ${parts}`;
  return `no usable ${w.platform} web account${where} (${summary})`;
}
