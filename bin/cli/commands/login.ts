/**
 * `aimon login [--key K|-] [--url U]`: verifies the API key by exchanging it
 * for an access token, then saves the URL and the key to the config file
 * (mode 0600). A key on the command line shows in the process list and in
 * npm's banner (`> node bin/aimon.js login --key …`), so `--key -` reads it as
 * the first line of stdin, and without --key it is asked on the terminal
 * without echo (or read from stdin when that is not a terminal).
 */
import { Writable } from 'node:stream';
import { createInterface } from 'node:readline/promises';
import { Command } from 'commander';
import { ApiClient } from '../api-client.js';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { saveConfig, trimSlash } from '../settings.js';

export function loginCommand(cli: Cli): Command {
  return new Command('login')
    .description('check an API key against the service and save it to the config file')
    .option(
      '--key <apiKey>',
      'the API key (amk_…); - reads it from stdin; asked for (not shown) when absent',
    )
    .option(
      '--url <url>',
      'the service base URL (default: AIMON_URL, the config file, or http://127.0.0.1:3000)',
    )
    .action(
      cli.action(async (o: { key?: string; url?: string }) => {
        const settings = await cli.settings();
        const url = trimSlash(o.url ?? settings.url);
        const given = o.key === '-' ? await firstLineOfStdin() : o.key;
        const key = (given ?? (await askKey(cli))).trim();
        if (key === '') throw new CliError('no API key given', EXIT.usage);
        await new ApiClient(url, key).accessToken();
        await saveConfig(settings.configPath, { url, apiKey: key });
        cli.note(`logged in to ${url}; saved to ${settings.configPath}`);
      }),
    );
}

async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? '';
}

async function askKey(cli: Cli): Promise<string> {
  if (!process.stdin.isTTY) return firstLineOfStdin();
  // The terminal echoes through readline's output: it shows the prompt, then is muted.
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) cli.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = rl.question('API key (not shown): ');
    muted = true;
    return await answer;
  } finally {
    rl.close();
    cli.stderr.write('\n');
  }
}
