/**
 * The checks of what operators and nodes send the accounts service: a
 * platform with a web channel, a label, a region code, a complete verdict.
 */
import type { AccountVerdict, ClaimedAccount } from '../shared/contracts/accounts.js';
import { isDivisionCode } from '../shared/divisions.js';
import { AppError } from '../shared/errors.js';
import { findPlatform } from '../shared/platforms.js';
import type { AccountDoc } from './models.js';

export interface NewAccount {
  platform: string;
  label: string;
  regionCode?: string | null;
  storageState?: unknown;
}

const LABEL = /^[^\s].{0,63}$/u;

/** What the scheduler and crawler nodes learn of a claimed account. */
export function claimed(doc: AccountDoc): ClaimedAccount {
  return {
    id: doc._id,
    label: doc.label,
    platform: doc.platform,
    regionCode: doc.regionCode,
    proxyKey: doc.proxyKey,
  };
}

/** The canonical name of a platform that has a web channel; else a 400. */
export function canonical(platform: string): string {
  const info = findPlatform(platform);
  if (!info?.channels.web) {
    throw AppError.invalid([
      { field: 'platform', message: `${platform} is not a platform with a web channel` },
    ]);
  }
  return info.name;
}

export function checkNew(n: NewAccount): {
  platform: string;
  label: string;
  regionCode: string | null;
} {
  const platform = canonical(n.platform);
  const label = n.label.trim();
  if (!LABEL.test(label)) {
    throw AppError.invalid([{ field: 'label', message: 'must be 1 to 64 characters' }]);
  }
  const regionCode = n.regionCode ?? null;
  if (regionCode !== null && !isDivisionCode(regionCode)) {
    throw AppError.invalid([
      { field: 'regionCode', message: `${regionCode} is not a city-lookup region code` },
    ]);
  }
  // Every region is a mainland division, which such a site refuses: its accounts have none.
  const info = findPlatform(platform);
  if (regionCode !== null && info?.serves === 'outside-mainland') {
    throw AppError.invalid([
      {
        field: 'regionCode',
        message: `${info.label} does not serve mainland China: its accounts take no region (their pages leave from the node's own egress)`,
      },
    ]);
  }
  return { platform, label, regionCode };
}

/** A cooling verdict needs its time and reason, a needs_human one its reason. */
export function checkVerdict(v: AccountVerdict): void {
  const loose = v as { state: string; untilMs?: unknown; reason?: unknown };
  const problems = [];
  if (loose.state !== 'healthy' && (typeof loose.reason !== 'string' || loose.reason === '')) {
    problems.push({ field: 'verdict.reason', message: `is required for ${loose.state}` });
  }
  if (loose.state === 'cooling' && !Number.isFinite(loose.untilMs)) {
    problems.push({ field: 'verdict.untilMs', message: 'is required for cooling' });
  }
  if (problems.length > 0) throw AppError.invalid(problems);
}
