/**
 * `aimon`: the command-line client of the service's HTTP API (docs/cli.md).
 * The service address and API key come from AIMON_URL / AIMON_API_KEY or the
 * config file `aimon login` writes (bin/cli/settings.ts).
 */
import { Command } from 'commander';
import { VERSION } from '../services/shared/version.js';
import { applyCommand } from './cli/commands/apply.js';
import { exportCommand } from './cli/commands/export.js';
import { listCommand } from './cli/commands/list.js';
import { loginCommand } from './cli/commands/login.js';
import { mcpCommand } from './cli/commands/mcp.js';
import { monitorCommand } from './cli/commands/monitor.js';
import { platformsCommand } from './cli/commands/platforms.js';
import { regionsCommand } from './cli/commands/regions.js';
import { resultCommand } from './cli/commands/result.js';
import { statusCommand } from './cli/commands/status.js';
import { submitCommand } from './cli/commands/submit.js';
import { verifyCommand } from './cli/commands/verify.js';
import { Cli } from './cli/context.js';
import { EXIT_CODES_HELP } from './cli/exit-codes.js';

const SETTINGS_HELP = `Settings:
  AIMON_URL      service base URL (default http://127.0.0.1:3000)
  AIMON_API_KEY  API key; both override the config file
  AIMON_CONFIG   config file (default ~/.config/aimon/config.json), written by \`aimon login\``;

const cli = new Cli();
const program = new Command('aimon')
  .description(
    'Command-line client of the AI-answer monitor: submit batches, follow them, read results, keep monitors',
  )
  .version(VERSION)
  .showHelpAfterError('(aimon --help lists the commands and exit codes)')
  .addHelpText('after', `\n${SETTINGS_HELP}\n\n${EXIT_CODES_HELP}`);

for (const command of [
  loginCommand,
  submitCommand,
  statusCommand,
  resultCommand,
  exportCommand,
  listCommand,
  monitorCommand,
  applyCommand,
  platformsCommand,
  regionsCommand,
  mcpCommand,
  verifyCommand,
]) {
  program.addCommand(command(cli));
}

await program.parseAsync();
