/**
 * `aimon regions [query] [--all] [--json]`: proxy regions from the public
 * city lookup, one port per region unless --all; the query filters by code
 * prefix or province / city name. Needs no API key.
 */
import { Command } from 'commander';
import { ApiClient } from '../api-client.js';
import type { Cli } from '../context.js';
import type { ProxyPortRecord } from '../../../services/shared/contracts/http.js';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';
import { matchesRegion, regionsText } from '../regions-format.js';

export function regionsCommand(cli: Cli): Command {
  return new Command('regions')
    .description('proxy regions to submit with --region (code prefix or province/city name)')
    .argument('[query]', 'e.g. 310100, 31, 上海')
    .option('--all', 'every proxy port, not one per region')
    .option('--json', 'print the records as JSON')
    .action(
      cli.action(async (query: string | undefined, o: { all?: boolean; json?: boolean }) => {
        // The lookup is public: no key needed, so none is asked for.
        const { url } = await cli.settings();
        const records = await new ApiClient(url, undefined).getPublic<ProxyPortRecord[]>(
          PATHS.CITY_INFO,
          { deduplicate: !o.all },
          'the city lookup',
        );
        const found = records.filter((r) => matchesRegion(r, query));
        cli.print(o.json ? JSON.stringify(found, null, 2) : regionsText(found));
        if (found.length === 0)
          cli.note(query ? `no region matches "${query}"` : 'no proxy regions');
      }),
    );
}
