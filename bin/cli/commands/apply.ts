/**
 * `aimon apply -f monitors.yaml [--dry-run]`: creates or updates your
 * monitors from a file, matched by name (configuration as code). Monitors not
 * in the file are left as they are. A second apply of the same file changes
 * nothing and says so; `--dry-run` prints the difference and changes nothing.
 */
import { Command } from 'commander';
import { PATHS, pathTo } from '../../../services/shared/contracts/http-paths.js';
import type { Cli } from '../context.js';
import { planApply, planText, readMonitorsFile } from '../monitor-apply.js';
import { readText } from './monitor.js';
import { allMonitors } from '../monitor-lookup.js';

export function applyCommand(cli: Cli): Command {
  return new Command('apply')
    .description('create or update your monitors from a YAML file, matched by name')
    .requiredOption('-f, --file <path>', 'monitors.yaml: `monitors:` and a list of monitors')
    .option('--dry-run', 'print the difference and change nothing')
    .action(
      cli.action(async (o: { file: string; dryRun?: boolean }) => {
        const { cwd } = await cli.settings();
        const desired = readMonitorsFile(readText(cwd, o.file, 'monitors'));
        const client = await cli.client();
        const steps = planApply(desired, await allMonitors(client));
        if (!o.dryRun) {
          for (const step of steps) {
            if (step.action === 'create') {
              await client.post(
                PATHS.MONITORS,
                step.desired.body,
                `monitor "${step.desired.name}"`,
              );
            } else if (step.action === 'update') {
              await client.put(
                pathTo(PATHS.MONITOR, { monitorId: step.monitorId }),
                step.desired.body,
                `monitor "${step.desired.name}"`,
              );
            }
          }
        }
        cli.print(planText(steps, o.dryRun === true));
      }),
    );
}
