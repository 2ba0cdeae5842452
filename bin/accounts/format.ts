/**
 * How account commands print for people, the same in the admin CLI and the
 * REPL; `--json` prints the results themselves instead.
 */
import type { AccountView } from '../../services/accounts/view.js';
import { formatTable } from '../region-table.js';
import type { AccountCommandName } from './commands.js';
import { formatDriverCheck, type DriverCheckResult } from './driver-check.js';

const HEADER = [
  'id',
  'platform',
  'label',
  'region',
  'proxy port',
  'state',
  'reason',
  'cool until',
  'last use',
  'quota left',
  'screenshot',
];

const time = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

/** The state, with what a person must do (login_wall, session_expired, verification) and whether it is busy. */
function stateOf(a: AccountView): string {
  const state = a.humanKind ? `${a.state}: ${a.humanKind}` : a.state;
  return a.holder === null ? state : `${state} (busy)`;
}

function row(a: AccountView): string[] {
  return [
    a.id,
    a.platform,
    a.label,
    a.regionCode ?? '-',
    a.proxyKey ?? '-',
    stateOf(a),
    a.reason ?? '-',
    a.state === 'cooling' ? time(a.coolUntil) : '-',
    time(a.lastUsedAt),
    a.quota === null ? '-' : `${a.quotaLeft}/${a.quota.prompts}`,
    a.screenshot ?? '-',
  ];
}

export function accountTable(accounts: readonly AccountView[]): string {
  return accounts.length === 0 ? 'no accounts' : formatTable(HEADER, accounts.map(row));
}

/** The text of one command's result. */
export function formatAccountResult(command: AccountCommandName, result: unknown): string {
  switch (command) {
    case 'list':
      return accountTable(result as AccountView[]);
    case 'remove':
      return `removed account ${(result as { id: string }).id}`;
    case 'check': {
      const r = result as { loggedIn: boolean; reason?: string; account: AccountView };
      const verdict = r.loggedIn ? 'logged in' : `logged out: ${r.reason}`;
      return `${verdict}\n${accountTable([r.account])}`;
    }
    case 'login': {
      const r = result as { out: string; account: AccountView };
      return `logged in; login state stored (last screen: ${r.out})\n${accountTable([r.account])}`;
    }
    case 'driver-check':
      return formatDriverCheck(result as DriverCheckResult);
    default:
      return accountTable([result as AccountView]);
  }
}
