/**
 * The operator's account commands, one table shared by the admin CLI
 * (`npm run admin -- account <command>`) and the REPL (`account-<command>`).
 * Each runs over the `accounts` service actions; `check` and `login` load the
 * browser code only when they run.
 */
import { readFile } from 'node:fs/promises';
import type { Config } from '../../services/shared/config.js';
import { isMode, MODES } from '../../services/shared/platforms.js';

export type AccountCalls = <T>(action: string, params: object) => Promise<T>;

export interface AccountOptions {
  platform?: string;
  label?: string;
  region?: string;
  stateFile?: string;
  file?: string;
  id?: string;
  out?: string;
  timeoutMs?: string;
  headed?: boolean;
  /** driver-check: the account's id or label, the prompt and the mode. */
  account?: string;
  prompt?: string;
  mode?: string;
}

export interface CommandContext {
  call: AccountCalls;
  config: Config;
  /** Progress for the person at the terminal (the QR code while logging in). */
  log(text: string): void;
}

export interface AccountCommand {
  usage: string;
  description: string;
  /** The options it reads, for the REPL's option list. */
  options: readonly (keyof AccountOptions)[];
  run(ctx: CommandContext, o: AccountOptions): Promise<unknown>;
}

/** A mistake in the command line (exit code 2), as opposed to a failure while running. */
export class UsageError extends Error {}

function required(o: AccountOptions, name: keyof AccountOptions, flag: string): string {
  const v = o[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`${flag} is required`);
  return v.trim();
}

async function readJson(path: string, flag: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag} ${path} cannot be read: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${flag} ${path} is not JSON (expected a Playwright storage-state file)`);
  }
}

const region = (o: AccountOptions) => (o.region ? { regionCode: o.region.trim() } : {});

function timeoutMs(o: AccountOptions): number {
  if (o.timeoutMs === undefined) return 300_000;
  const n = Number(o.timeoutMs);
  if (!Number.isSafeInteger(n) || n < 1_000)
    throw new UsageError('--timeout-ms must be at least 1000');
  return n;
}

export const ACCOUNT_COMMANDS = {
  add: {
    usage: '--platform P --label L [--region CODE] [--state-file F]',
    description: 'add a web-channel account (without a state file it waits for account login)',
    options: ['platform', 'label', 'region', 'stateFile'],
    async run(ctx, o) {
      const platform = required(o, 'platform', '--platform');
      const label = required(o, 'label', '--label');
      const storageState = o.stateFile ? await readJson(o.stateFile, '--state-file') : undefined;
      return ctx.call('add', {
        platform,
        label,
        ...region(o),
        ...(storageState ? { storageState } : {}),
      });
    },
  },
  import: {
    usage: '--platform P --label L --file storage-state.json [--region CODE]',
    description: "store a browser's exported storage state as the account's login",
    options: ['platform', 'label', 'file', 'region'],
    async run(ctx, o) {
      const platform = required(o, 'platform', '--platform');
      const label = required(o, 'label', '--label');
      const storageState = await readJson(required(o, 'file', '--file'), '--file');
      return ctx.call('import', { platform, label, ...region(o), storageState });
    },
  },
  list: {
    usage: '[--platform P]',
    description: 'accounts with state, reason, last use and quota left (never the login)',
    options: ['platform'],
    run: async (ctx, o) => ctx.call('list', o.platform ? { platform: o.platform.trim() } : {}),
  },
  disable: {
    usage: '--id ID',
    description: 'take an account out of use',
    options: ['id'],
    run: async (ctx, o) =>
      ctx.call('setState', { id: required(o, 'id', '--id'), state: 'disabled' }),
  },
  enable: {
    usage: '--id ID',
    description: 'put an account back into use (healthy)',
    options: ['id'],
    run: async (ctx, o) =>
      ctx.call('setState', { id: required(o, 'id', '--id'), state: 'healthy' }),
  },
  remove: {
    usage: '--id ID',
    description: 'delete an account and its login',
    options: ['id'],
    run: async (ctx, o) => ctx.call('remove', { id: required(o, 'id', '--id') }),
  },
  check: {
    usage: '--id ID',
    description: "open the site with the account's login and probe it (logged out: needs_human)",
    options: ['id', 'headed'],
    async run(ctx, o) {
      const id = required(o, 'id', '--id');
      const browser = await import('./browser.js');
      return browser.checkAccount(browser.browserDeps(ctx, o.headed === true), id);
    },
  },
  login: {
    usage: '--platform P --label L [--region CODE] [--out login.png] [--timeout-ms N] [--headed]',
    description:
      'log in on the site in Chromium (QR code as PNG and in the terminal), then store the login',
    options: ['platform', 'label', 'region', 'out', 'timeoutMs', 'headed'],
    async run(ctx, o) {
      const platform = required(o, 'platform', '--platform');
      const label = required(o, 'label', '--label');
      const wait = timeoutMs(o);
      const browser = await import('./browser.js');
      return browser.loginAccount(browser.browserDeps(ctx, o.headed === true), {
        platform,
        label,
        ...region(o),
        out: o.out?.trim() || 'login.png',
        timeoutMs: wait,
      });
    },
  },
  'driver-check': {
    usage: '--platform P --account ID|LABEL [--prompt TEXT] [--mode M] [--out DIR] [--headed]',
    description:
      'one prompt on the live site as the account: every field, the effective mode and stream format; frames and screenshot saved',
    options: ['platform', 'account', 'prompt', 'mode', 'out', 'headed'],
    async run(ctx, o) {
      const platform = required(o, 'platform', '--platform');
      const account = required(o, 'account', '--account');
      const mode = o.mode?.trim() || 'standard';
      if (!isMode(mode)) throw new UsageError(`--mode must be one of ${MODES.join(', ')}`);
      const browser = await import('./browser.js');
      const { driverCheck } = await import('./driver-check.js');
      return driverCheck(browser.browserDeps(ctx, o.headed === true), {
        platform,
        account,
        prompt: o.prompt?.trim() || DRIVER_CHECK_PROMPT,
        mode,
        outDir:
          o.out?.trim() ||
          `var/driver-check/${platform}-${new Date().toISOString().replace(/[:.]/g, '-')}`,
      });
    },
  },
} as const satisfies Record<string, AccountCommand>;

/** A prompt whose answer shows every field: sources, citations and follow-ups. */
const DRIVER_CHECK_PROMPT = '2026年最值得购买的国产新能源汽车有哪些？请给出来源。';

export type AccountCommandName = keyof typeof ACCOUNT_COMMANDS;

export function isAccountCommand(name: string | undefined): name is AccountCommandName {
  return name !== undefined && Object.hasOwn(ACCOUNT_COMMANDS, name);
}

export function accountUsage(): string {
  return Object.entries(ACCOUNT_COMMANDS)
    .map(
      ([name, c]) =>
        `  ${name === 'driver-check' ? name : `account ${name}`} ${c.usage}\n${' '.repeat(32)}${c.description}`,
    )
    .join('\n');
}
