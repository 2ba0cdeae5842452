/** `aimon platforms [--region code] [--json]`: the catalogue with channels, modes and availability. */
import { Command } from 'commander';
import type { PlatformsData } from '../../../services/shared/contracts/http.js';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';
import type { Cli } from '../context.js';
import { platformsText } from '../platforms-format.js';

export function platformsCommand(cli: Cli): Command {
  return new Command('platforms')
    .description('the platforms you can submit to: channels, modes, availability')
    .option('--region <code>', 'availability for work in this proxy region (see `aimon regions`)')
    .option('--json', 'print the catalogue as JSON')
    .action(
      cli.action(async (o: { region?: string; json?: boolean }) => {
        const client = await cli.client();
        const entries = await client.get<PlatformsData>(
          PATHS.PLATFORMS,
          { regionCode: o.region },
          'the platform list request',
        );
        cli.print(o.json ? JSON.stringify(entries, null, 2) : platformsText(entries));
      }),
    );
}
