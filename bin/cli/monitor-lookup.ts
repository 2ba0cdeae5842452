/**
 * Finding the caller's monitors: all of them, page by page (what `aimon apply`
 * matches by name), and one named by its id or its name.
 */
import type { MonitorView } from '../../services/shared/contracts/monitors.js';
import { PATHS } from '../../services/shared/contracts/http-paths.js';
import { isUuid } from '../../services/shared/ids.js';
import type { ApiClient } from './api-client.js';
import { CliError, EXIT } from './exit-codes.js';

/** The API's largest page. */
const PAGE_SIZE = 100;

export async function allMonitors(client: ApiClient): Promise<MonitorView[]> {
  const monitors: MonitorView[] = [];
  for (let page = 1; ; page++) {
    const list = await client.get<{ total: number; monitors: MonitorView[] }>(
      PATHS.MONITORS,
      { page, size: PAGE_SIZE },
      'the monitor list request',
    );
    monitors.push(...list.monitors);
    if (monitors.length >= list.total || list.monitors.length === 0) return monitors;
  }
}

/** A monitor id as given, or the id of the one monitor with that name. */
export async function monitorIdOf(client: ApiClient, idOrName: string): Promise<string> {
  if (isUuid(idOrName)) return idOrName;
  const named = (await allMonitors(client)).filter((m) => m.name === idOrName);
  if (named.length === 1) return named[0]!.monitorId;
  throw new CliError(
    named.length === 0
      ? `no monitor is named "${idOrName}" (give its id or its exact name)`
      : `${named.length} monitors are named "${idOrName}": give the id`,
    EXIT.usage,
  );
}
