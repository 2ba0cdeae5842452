/**
 * `aimon verify <bundle> [--jwks file-or-url]`: checks an evidence bundle's
 * hashes and signatures (bin/cli/bundle-verify.ts). With a saved key set
 * file it runs offline; a URL is fetched; without --jwks it fetches the
 * logged-in service's `/.well-known/jwks.json`.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command } from 'commander';
import type { JSONWebKeySet } from 'jose';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';
import { readBundle } from '../bundle-read.js';
import { verifyBundle } from '../bundle-verify.js';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';

export function verifyCommand(cli: Cli): Command {
  return new Command('verify')
    .description("check an evidence bundle's hashes and signatures (offline with a saved key set)")
    .argument('<bundle>', 'the .tar from …/evidence')
    .option('--jwks <file-or-url>', "the key set (default: the service's /.well-known/jwks.json)")
    .action(
      cli.action(async (bundle: string, o: { jwks?: string }) => {
        const { cwd, url } = await cli.settings();
        const jwks = await keySet(o.jwks ?? url + PATHS.JWKS, cwd);
        const entries = await readBundle(resolve(cwd, bundle)).catch((err: Error) => {
          throw new CliError(`cannot read ${bundle} as a tar: ${err.message}`, EXIT.usage);
        });
        const report = await verifyBundle(entries, jwks);
        for (const line of report.verified) cli.print(`ok    ${line}`);
        if (report.failures.length === 0) {
          cli.print(`verified: ${entries.size} files, ${bundle}`);
          return EXIT.ok;
        }
        throw new CliError(
          `verification failed: ${report.failures.length} problem(s) in ${bundle}`,
          EXIT.failed,
          report.failures,
        );
      }),
    );
}

async function keySet(source: string, cwd: string): Promise<JSONWebKeySet> {
  const text = /^https?:\/\//.test(source)
    ? await fetch(source).then((r) => {
        if (!r.ok) throw new CliError(`${source}: HTTP ${r.status}`, EXIT.unreachable);
        return r.text();
      })
    : await readFile(resolve(cwd, source), 'utf8');
  const parsed = JSON.parse(text) as JSONWebKeySet;
  if (!Array.isArray(parsed?.keys)) throw new CliError(`${source} is not a JWKS`, EXIT.usage);
  return parsed;
}
