/**
 * The benchmark's logged-in accounts on the replica: each the replica's test
 * login plus a cookie of its own (`bench_account=<label>`), which the browser
 * sends with every request of that account's page, so the replica's record of
 * each chat call says which account made it.
 */
import type { ServiceBroker } from 'moleculer';
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import type { AccountView } from '../../services/accounts/view.js';
import { cookies } from '../../replicas/common/site.js';
import type { Replica } from '../../replicas/index.js';
import type { SiteRequest } from './figures.js';
import { driverFor } from '../../crawler/platforms/index.js';

const COOKIE = 'bench_account';

export function accountState(replica: Replica, label: string): StorageState {
  const state = replica.storageState();
  const { hostname } = new URL(replica.url);
  return {
    ...state,
    cookies: [
      ...state.cookies,
      {
        name: COOKIE,
        value: label,
        domain: hostname,
        path: '/',
        expires: -1,
        httpOnly: false,
        secure: false,
        sameSite: 'Lax',
      },
    ],
  };
}

/** Adds `n` logged-in accounts through the accounts service; answers label → id. */
export async function addAccounts(
  probe: ServiceBroker,
  replica: Replica,
  platform: string,
  n: number,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (let i = 1; i <= n; i++) {
    const label = `bench-${i}`;
    const view = await probe.call<AccountView, object>('accounts.import', {
      platform,
      label,
      storageState: accountState(replica, label),
    });
    ids.set(label, view.id);
  }
  return ids;
}

/** Every request the replica saw from an account's page, with the account (by id). */
export function siteRequests(
  replica: Replica,
  platform: string,
  idOfLabel: ReadonlyMap<string, string>,
): SiteRequest[] {
  const path = driverFor(platform, 'web')?.web?.chatCall;
  if (!path) throw new Error(`the ${platform} web driver names no chat call`);
  const out: SiteRequest[] = [];
  for (const s of replica.site.seen) {
    const label = cookies({ headers: s.headers } as Parameters<typeof cookies>[0])[COOKIE];
    const accountId = label === undefined ? undefined : idOfLabel.get(label);
    if (accountId === undefined) continue;
    const chat = s.method === 'POST' && path.test(s.path);
    out.push({ accountId, chat, at: s.at, ms: s.ms });
  }
  return out;
}
