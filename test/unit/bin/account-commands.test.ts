import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ACCOUNT_COMMANDS,
  UsageError,
  type CommandContext,
} from '../../../bin/accounts/commands.js';
import { formatAccountResult } from '../../../bin/accounts/format.js';
import type { AccountView } from '../../../services/accounts/view.js';
import { loadConfig } from '../../../services/shared/config.js';

const dir = mkdtempSync(join(tmpdir(), 'account-commands-'));
const config = loadConfig({});

/** Records the service calls a command makes. */
function context(): CommandContext & { calls: [string, object][] } {
  const calls: [string, object][] = [];
  return {
    calls,
    config,
    log: () => undefined,
    call: async <T>(action: string, params: object) => {
      calls.push([action, params]);
      return { action } as T;
    },
  };
}

t.test('each command calls its action with the options it was given', async (t) => {
  const file = join(dir, 'state.json');
  writeFileSync(file, JSON.stringify({ cookies: [], origins: [] }));
  const ctx = context();
  await ACCOUNT_COMMANDS.add.run(ctx, { platform: 'kimi', label: ' k1 ', region: '310100' });
  await ACCOUNT_COMMANDS.add.run(ctx, { platform: 'kimi', label: 'k2', stateFile: file });
  await ACCOUNT_COMMANDS.import.run(ctx, { platform: 'doubao', label: 'd', file });
  await ACCOUNT_COMMANDS.list.run(ctx, {});
  await ACCOUNT_COMMANDS.list.run(ctx, { platform: 'kimi' });
  await ACCOUNT_COMMANDS.disable.run(ctx, { id: 'a' });
  await ACCOUNT_COMMANDS.enable.run(ctx, { id: 'a' });
  await ACCOUNT_COMMANDS.remove.run(ctx, { id: 'a' });
  t.same(ctx.calls, [
    ['add', { platform: 'kimi', label: 'k1', regionCode: '310100' }],
    ['add', { platform: 'kimi', label: 'k2', storageState: { cookies: [], origins: [] } }],
    ['import', { platform: 'doubao', label: 'd', storageState: { cookies: [], origins: [] } }],
    ['list', {}],
    ['list', { platform: 'kimi' }],
    ['setState', { id: 'a', state: 'disabled' }],
    ['setState', { id: 'a', state: 'healthy' }],
    ['remove', { id: 'a' }],
  ]);
});

t.test('command-line mistakes are usage errors, before any call', async (t) => {
  const notJson = join(dir, 'not.json');
  writeFileSync(notJson, 'cookies=1');
  const ctx = context();
  const cases: [() => Promise<unknown>, RegExp][] = [
    [() => ACCOUNT_COMMANDS.add.run(ctx, { label: 'x' }), /^--platform is required$/],
    [
      () => ACCOUNT_COMMANDS.add.run(ctx, { platform: 'kimi', label: ' ' }),
      /^--label is required$/,
    ],
    [
      () => ACCOUNT_COMMANDS.import.run(ctx, { platform: 'kimi', label: 'x' }),
      /^--file is required$/,
    ],
    [
      () =>
        ACCOUNT_COMMANDS.import.run(ctx, { platform: 'kimi', label: 'x', file: join(dir, 'no') }),
      /^--file .*no cannot be read/,
    ],
    [
      () => ACCOUNT_COMMANDS.add.run(ctx, { platform: 'kimi', label: 'x', stateFile: notJson }),
      /^--state-file .*not\.json is not JSON/,
    ],
    [() => ACCOUNT_COMMANDS.remove.run(ctx, {}), /^--id is required$/],
    [() => ACCOUNT_COMMANDS.check.run(ctx, {}), /^--id is required$/],
    [
      () => ACCOUNT_COMMANDS.login.run(ctx, { platform: 'kimi', label: 'x', timeoutMs: '999' }),
      /^--timeout-ms must be at least 1000$/,
    ],
  ];
  for (const [p, message] of cases) {
    const err = await p().then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(err instanceof UsageError, String(message));
    t.match((err as Error).message, message);
  }
  t.same(ctx.calls, []);
});

const view: AccountView = {
  id: 'a1',
  platform: 'kimi',
  label: 'k1',
  regionCode: '310100',
  proxyKey: '127.0.0.1:8001',
  state: 'cooling',
  reason: 'kimi rate limit',
  humanKind: null,
  coolUntil: Date.UTC(2026, 10, 23, 12),
  hasState: true,
  holder: null,
  lastUsedAt: Date.UTC(2026, 10, 23, 11),
  availableAt: Date.UTC(2026, 10, 23, 12),
  quota: { prompts: 30, perMs: 10_800_000 },
  quotaLeft: 28,
  screenshot: null,
  createdAt: 0,
};

t.test('one table for every command that shows accounts', async (t) => {
  const table = formatAccountResult('list', [view]).split('\n');
  t.match(
    table[0],
    /^id\s+platform\s+label\s+region\s+proxy port\s+state\s+reason\s+cool until\s+last use\s+quota left\s+screenshot/,
  );
  t.match(
    table[1],
    /^a1\s+kimi\s+k1\s+310100\s+127\.0\.0\.1:8001\s+cooling\s+kimi rate limit\s+2026-11-23T12:00:00\.000Z\s+2026-11-23T11:00:00\.000Z\s+28\/30\s+-/,
  );
  t.equal(formatAccountResult('list', []), 'no accounts');
  t.match(
    formatAccountResult('list', [
      { ...view, state: 'needs_human', humanKind: 'session_expired', reason: 'x' },
    ]).split('\n')[1],
    /\bneeds_human: session_expired\s+x\s/,
    'the help a person must give, beside the state',
  );
  t.match(
    formatAccountResult('add', { ...view, holder: 's t', state: 'healthy' }),
    /healthy \(busy\)/,
  );
  t.equal(formatAccountResult('remove', { id: 'a1', removed: true }), 'removed account a1');
  t.match(
    formatAccountResult('check', { loggedIn: false, reason: 'login wall', account: view }),
    /^logged out: login wall\nid/,
  );
  t.match(
    formatAccountResult('login', { out: 'login.png', account: view }),
    /^logged in; login state stored \(last screen: login\.png\)\nid/,
  );
});
