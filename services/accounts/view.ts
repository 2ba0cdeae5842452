/**
 * What operators see of an account (`accounts.list` and the other operator
 * actions): everything but the storage state, which never leaves the service
 * except to the holder that checks it out.
 */
import type { AccountState, HumanKind } from '../shared/contracts/accounts.js';
import { screenshotPath } from '../shared/screenshots.js';
import type { AccountDoc } from './models.js';
import type { Pacing } from './pacing.js';
import { availableAt, quotaLeft } from './policy.js';

export interface AccountView {
  id: string;
  platform: string;
  label: string;
  regionCode: string | null;
  proxyKey: string | null;
  state: AccountState;
  reason: string | null;
  /** needs_human: what a person must do (login_wall, session_expired, verification); else null. */
  humanKind: HumanKind | null;
  coolUntil: number | null;
  /** Whether a login is stored (an added account without one needs `account login`). */
  hasState: boolean;
  /** The sub task running on it, while one does. */
  holder: string | null;
  lastUsedAt: number | null;
  /** When pacing, quota or cooling next allow a prompt; null: now. */
  availableAt: number | null;
  quota: Pacing['quota'];
  /** Prompts left in the current window; null: the platform has no quota. */
  quotaLeft: number | null;
  /** needs_human: what the site showed, as an absolute URL. */
  screenshot: string | null;
  createdAt: number;
}

export function accountView(
  a: AccountDoc,
  now: number,
  pacing: Pacing,
  screenshotBase: string,
): AccountView {
  const held = a.holder !== null && (a.heldUntil ?? 0) >= now;
  return {
    id: a._id,
    platform: a.platform,
    label: a.label,
    regionCode: a.regionCode,
    proxyKey: a.proxyKey,
    state: a.state,
    reason: a.reason,
    humanKind: a.state === 'needs_human' ? (a.humanKind ?? null) : null,
    coolUntil: a.coolUntil,
    hasState: a.stateCipher !== null,
    holder: held ? a.holder : null,
    lastUsedAt: a.lastUsedAt,
    availableAt: availableAt(a, now, pacing),
    quota: pacing.quota,
    quotaLeft: quotaLeft(a.usage, now, pacing.quota),
    screenshot: a.screenshotId === null ? null : screenshotBase + screenshotPath(a.screenshotId),
    createdAt: a.createdAt,
  };
}
