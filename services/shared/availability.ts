/**
 * Whether a (platform, channel) pair can run for a request, pure: the one rule
 * behind `GET /platforms` (which the dashboard and the CLI show) and the
 * submission check. A pair is available when a live crawler node runs it (one
 * serving the request's region, when it names one) and, on the web channel of
 * a real site, the platform has an account in working order in a region the
 * request can use: its own region, or any region when it names none; a
 * platform that does not serve mainland China is never available in a region
 * (every region is a mainland division). What is missing is named, so work that
 * could only wait and fail is refused at once.
 */
import { runsPair, type CrawlerNode } from './contracts/advert.js';
import type { CoverageAnswer } from './contracts/accounts.js';
import { needsAccounts, type Channel, type PlatformInfo } from './platforms.js';

export const MISSING = ['node', 'account', 'region'] as const;
export type Missing = (typeof MISSING)[number];

/** What the services know, read once per request. */
export interface AvailabilityFacts {
  /** The live crawler nodes' adverts; none: no node is up yet, so what runs cannot be told. */
  nodes: readonly CrawlerNode[];
  /** `accounts.coverage`; undefined: the accounts service did not answer. */
  accounts: CoverageAnswer['regions'] | undefined;
}

export interface Verdict {
  /** null: cannot be told now; a submission is accepted and its work waits. */
  available: boolean | null;
  missing: Missing[];
  /** Why it is not available (or cannot be told); null when it is. */
  reason: string | null;
}

/** Only the web channel runs as accounts, and only where the platform's definition says so. */
export function needsAccount(platform: PlatformInfo, channel: Channel): boolean {
  return channel === 'web' && needsAccounts(platform.name);
}

export function verdictOf(
  platform: PlatformInfo,
  channel: Channel,
  regionCode: string | null,
  facts: AvailabilityFacts,
): Verdict {
  const missing: Missing[] = [];
  const reasons: string[] = [];
  const unknown: string[] = [];
  const inRegion = regionCode === null ? '' : ` in region ${regionCode}`;

  // Every region is in mainland China: no node or account there could reach such a platform.
  if (regionCode !== null && platform.serves === 'outside-mainland')
    return {
      available: false,
      missing: ['region'],
      reason: `${platform.label} does not serve mainland China, where region ${regionCode} is`,
    };

  if (facts.nodes.length === 0) unknown.push('no crawler node is up yet');
  else {
    const running = facts.nodes.filter((n) => runsPair(n, platform.name, channel));
    if (!running.some((n) => regionCode === null || n.regions.includes(regionCode))) {
      missing.push('node');
      reasons.push(`no live crawler node runs it${running.length === 0 ? '' : inRegion}`);
    }
  }

  if (needsAccount(platform, channel)) {
    const regions = facts.accounts?.[platform.name] ?? [];
    if (facts.accounts === undefined) unknown.push('the accounts service did not answer');
    else if (regions.length === 0) {
      missing.push('account');
      reasons.push('no usable account');
    } else if (regionCode !== null && !regions.includes(regionCode)) {
      missing.push('account');
      reasons.push(`no usable account${inRegion} (usable ones: ${placesOf(regions)})`);
    }
  }

  if (missing.length > 0) return { available: false, missing, reason: reasons.join('; ') };
  if (unknown.length > 0) {
    return { available: null, missing, reason: `${unknown.join('; ')}: submitted work waits` };
  }
  return { available: true, missing, reason: null };
}

/** "310100, 110100, without region": where the usable accounts are. */
function placesOf(regions: readonly (string | null)[]): string {
  return regions.map((r) => r ?? 'without region').join(', ');
}
