/**
 * `--wait` survives a broken events stream: a relay between the CLI and the
 * service cuts the first stream right after its first bytes; the CLI opens
 * it again with Last-Event-ID and still ends with the right summary and
 * exit code. A relay that ends every stream before its first event makes the
 * CLI give up after ten reconnections, with the unreachable exit code.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { aimon } from '../../helpers/aimon.js';
import { startEmbedded } from '../../helpers/cluster.js';

const sandbox = await startSandboxServer({ latencyMs: 40 });
t.teardown(() => sandbox.close());
const svc = await startEmbedded(t, { SERVICES: 'all', SANDBOX_URL: sandbox.url });
const user = await svc.newUser();
const target = new URL(svc.client.baseUrl);

/**
 * Forwards every request; the first events stream is cut after its first chunk.
 * `mute`: every events stream is answered with its headers and ended at once.
 */
const streams: IncomingHttpHeaders[] = [];
let mute = false;
const relay = createServer((req, res) => {
  const isStream = /\/events$/.test(req.url ?? '');
  if (isStream) streams.push(req.headers);
  if (isStream && mute) {
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end();
    return;
  }
  const cut = isStream && streams.length === 1;
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      path: req.url,
      method: req.method,
      headers: req.headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => {
        // Cut once the chunk has left: the CLI gets the snapshot, then a broken stream.
        res.write(chunk, () => {
          if (!cut) return;
          answer.destroy();
          res.destroy();
        });
      });
      answer.on('end', () => res.end());
    },
  );
  req.pipe(upstream);
});
await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise((resolve) => relay.close(resolve)));
const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;

t.test('a cut stream is resumed with Last-Event-ID; the task is followed to its end', async (t) => {
  // Submitted by the CLI itself, so the stream opens while the sub tasks still run.
  const run = await aimon(
    ['submit', 'slow #latency:1500', 'slower #latency:2000', '-p', 'sandbox', '--wait'],
    { AIMON_URL: relayUrl, AIMON_API_KEY: user.apiKey },
  );
  const taskId = run.stdout.split('\n')[0]!;
  t.equal(run.code, 0, 'exit 0', { stderr: run.stderr });
  t.match(
    run.stderr,
    /the stream (ended before the task was done|broke off).*; reconnecting in 1000 ms/,
  );
  t.ok(streams.length >= 2, 'the stream was opened again');
  t.equal(streams[0]!['last-event-id'], undefined, 'the first opening names no event');
  // The id of the last event the cut stream delivered (the snapshot is 1; later ones may share its chunk).
  t.match(streams[1]!['last-event-id'], /^[1-9]\d*$/, 'the second resumes after an event id');
  t.match(streams[1]!.authorization, /^Bearer /);
  t.match(run.stdout, `task ${taskId}: completed (2 completed, 0 failed, 2 sub tasks)`);
  t.match(run.stderr, '2/2 sub tasks: 2 completed, 0 failed (completed)');
});

t.test('a stream that never sends an event: ten reconnections, then exit 4', async (t) => {
  const { taskId } = (
    await svc.client.post(
      '/api/business/monitor/task/batch/shared',
      { prompts: ['muted #latency:30000'], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
      user.token,
    )
  ).body.data;
  mute = true;
  streams.length = 0;
  const run = await aimon(['status', taskId, '--wait'], {
    AIMON_URL: relayUrl,
    AIMON_API_KEY: user.apiKey,
  });
  mute = false;
  t.equal(run.code, 4, 'the unreachable exit code', { stderr: run.stderr });
  t.match(
    run.stderr,
    `gave up following task ${taskId}: the stream ended before the task was done`,
  );
  t.equal(streams.length, 11, 'the first opening and ten reconnections');
  t.equal(
    run.stderr.match(/reconnecting in 1000 ms/g)?.length,
    10,
    'each reconnection is told, a second apart',
  );
});
