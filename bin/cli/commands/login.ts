/**
 * `aimon login [--key K] [--url U]`: verifies the API key by exchanging it
 * for an access token, then saves the URL and the key to the config file
 * (mode 0600). Without --key the key is asked on the terminal, or read as
 * the first line of stdin when that is not a terminal.
 */
import { createInterface } from 'node:readline/promises';
import { Command } from 'commander';
import { ApiClient } from '../api-client.js';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { saveConfig, trimSlash } from '../settings.js';

export function loginCommand(cli: Cli): Command {
  return new Command('login')
    .description('check an API key against the service and save it to the config file')
    .option('--key <apiKey>', 'the API key (amk_…); asked for when absent')
    .option(
      '--url <url>',
      'the service base URL (default: AIMON_URL, the config file, or http://127.0.0.1:3000)',
    )
    .action(
      cli.action(async (o: { key?: string; url?: string }) => {
        const settings = await cli.settings();
        const url = trimSlash(o.url ?? settings.url);
        const key = (o.key ?? (await askKey(cli))).trim();
        if (key === '') throw new CliError('no API key given', EXIT.usage);
        await new ApiClient(url, key).accessToken();
        await saveConfig(settings.configPath, { url, apiKey: key });
        cli.note(`logged in to ${url}; saved to ${settings.configPath}`);
      }),
    );
}

async function askKey(cli: Cli): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? '';
  }
  const rl = createInterface({ input: process.stdin, output: cli.stderr });
  try {
    return await rl.question('API key: ');
  } finally {
    rl.close();
  }
}
