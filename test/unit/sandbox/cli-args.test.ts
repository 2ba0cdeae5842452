import t from 'tap';
import { sandboxOptionsFromArgs } from '../../../sandbox/cli-args.js';
import { loadConfig } from '../../../services/shared/config.js';

const builtIn = loadConfig({}).sandbox;

t.test(
  'without flags: the built-in stand-in’s latency and failure share, server defaults',
  async (t) => {
    t.same(sandboxOptionsFromArgs([], builtIn), {
      latencyMs: builtIn.latencyMs,
      failureRate: builtIn.failureRate,
      loginWall: false,
    });
    t.equal(builtIn.latencyMs, 1500, 'the one default, from the config module');
    const fromEnv = loadConfig({ SANDBOX_LATENCY_MS: '250', SANDBOX_FAILURE_RATE: '0.1' }).sandbox;
    t.match(sandboxOptionsFromArgs([], fromEnv), { latencyMs: 250, failureRate: 0.1 });
  },
);

t.test('every flag', async (t) => {
  t.same(
    sandboxOptionsFromArgs(
      [
        '--host',
        '::1',
        '--port',
        '8787',
        '--seed',
        '7',
        '--login-wall',
        '--latency-ms',
        '0',
        '--failure-rate=0.25',
      ],
      builtIn,
    ),
    { host: '::1', port: 8787, seed: 7, loginWall: true, latencyMs: 0, failureRate: 0.25 },
  );
});

t.test('bad flags are refused with the usage', async (t) => {
  for (const argv of [
    ['--port', '70000'],
    ['--port', 'x'],
    ['--failure-rate', '2'],
    ['--latency-ms', '-1'],
    ['--latency-ms=-1'],
    ['--seed', '1.5'],
    ['--host', ''],
    ['--unknown'],
    ['--login-wall=yes'],
  ]) {
    t.throws(() => sandboxOptionsFromArgs(argv, builtIn), /\nusage: /, argv.join(' '));
  }
  t.throws(() => sandboxOptionsFromArgs(['--port', '70000'], builtIn), /--port/);
});
