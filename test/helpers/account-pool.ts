/**
 * Accounts in memory with the claim rules of the `accounts` service
 * (WEB-CONTRACT.md), for the scheduler's unit tests: usable counts, atomic
 * claims by holder, ports, region and avoid list, pinning on first claim,
 * releases that must name the holder (a wrong one throws, as the service
 * answers ok: false).
 */
import type {
  ClaimAnswer,
  ClaimRequest,
  UsableAnswer,
} from '../../services/shared/contracts/accounts.js';

export interface PoolAccount {
  id: string;
  platform: string;
  regionCode: string | null;
  proxyKey: string | null;
  /** false: needs_human, cooling or disabled. */
  usable: boolean;
  holder: string | null;
}

export function poolAccount(
  id: string,
  platform: string,
  extra: Partial<PoolAccount> = {},
): PoolAccount {
  return { id, platform, regionCode: null, proxyKey: null, usable: true, holder: null, ...extra };
}

export class AccountPool {
  readonly claims: ClaimRequest[] = [];
  readonly releases: { id: string; holder: string }[] = [];
  usableCalls = 0;

  constructor(readonly accounts: PoolAccount[]) {}

  usable(): UsableAnswer {
    this.usableCalls += 1;
    const counts: Record<string, number> = {};
    for (const a of this.accounts) {
      if (!a.usable || a.holder !== null) continue;
      const key = `${a.platform}|${a.regionCode ?? ''}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return { counts };
  }

  claim(r: ClaimRequest): ClaimAnswer {
    this.claims.push(r);
    const a = this.accounts.find(
      (a) =>
        a.platform === r.platform &&
        a.usable &&
        a.holder === null &&
        (r.regionCode === null || a.regionCode === r.regionCode) &&
        (a.proxyKey === null
          ? a.regionCode === null || r.ports.length > 0
          : r.ports.includes(a.proxyKey)) &&
        !(r.avoid ?? []).includes(a.id),
    );
    if (!a) return { account: null, reason: 'none usable' };
    if (a.regionCode !== null && a.proxyKey === null) a.proxyKey = r.ports[0]!;
    a.holder = r.holder;
    const { id, platform, regionCode, proxyKey } = a;
    return { account: { id, label: id, platform, regionCode, proxyKey } };
  }

  release(id: string, holder: string): void {
    const a = this.accounts.find((a) => a.id === id);
    if (!a || a.holder !== holder) throw new Error(`${id} is not held by ${holder}`);
    this.releases.push({ id, holder });
    a.holder = null;
  }

  /** The sub task holding the account (the first part of its holder). */
  heldBy(id: string): string | null {
    return this.accounts.find((a) => a.id === id)?.holder?.split(' ')[0] ?? null;
  }
}
