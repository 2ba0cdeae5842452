/**
 * LOG_FORMAT=json: a node's log lines are JSON objects, and the lines about a
 * task carry its id and the id of the request that submitted it (the
 * client's X-Request-Id, passed on as the Moleculer requestID).
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { Client } from '../../helpers/http.js';
import { runProcess, startProcess } from '../../../infra/processes.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';
import { until } from '../../helpers/wait.js';
import { noisyLines } from '../../helpers/log-lines.js';

const sandbox = await startSandboxServer({ latencyMs: 20 });
t.teardown(() => sandbox.close());

t.test('json log lines name the request and the task', async (t) => {
  const env = {
    MONGO_URL: mongoUrl(),
    MONGO_DB: uniqueDbName('jsonlogs'),
    PORT: '0',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    SANDBOX_URL: sandbox.url,
  };
  const node = startProcess('bin/serve.ts', [], { ...env, NODE_ID: 'json-1' });
  t.teardown(() => node.stop());
  const [, url] = await node.waitFor(/READY node=json-1 \S+ api=(\S+)/);
  // The embedded default (every service in one process) starts without a warning.
  t.same(noisyLines(node.output()), [], 'the start logged no WARN or ERROR line');
  const created = await runProcess(
    'bin/admin.ts',
    ['create-user', '--name', 'logs', '--json'],
    env,
  );
  t.equal(created.code, 0, created.output);
  const { apiKey } = JSON.parse(created.output.trim()) as { apiKey: string };
  const client = new Client(url!);
  const token = (await client.post('/api/business/auth/token', { apiKey })).body.data.accessToken;

  const requestId = `req-${process.pid}-json`;
  const submitted = await client.request('POST', '/api/business/monitor/task/batch/shared', {
    token,
    headers: { 'x-request-id': requestId },
    body: { prompts: ['hello'], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
  });
  t.equal(submitted.status, 200, submitted.text);
  t.equal(submitted.headers.get('x-request-id'), requestId, 'the id is echoed');
  const taskId = submitted.body.data.taskId as string;

  const lines = () =>
    node
      .output()
      .split('\n')
      // The lifecycle lines (READY, DRAINING) are a plain-text protocol for scripts.
      .filter((l) => l !== '' && !/^(READY|DRAINING|DRAINED) /.test(l));
  const finished = await until('the finish is logged', async () =>
    lines()
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.message === 'task finished' && l.taskId === taskId),
  );
  t.match(finished, { level: 'info', node: 'json-1', status: 'completed' });
  t.match(finished.time, /^\d{4}-\d\d-\d\dT/);

  const parsed = lines().map((l) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      return { unparsed: l };
    }
  });
  t.same(
    parsed.filter((l) => 'unparsed' in l),
    [],
    'every log line is one JSON object',
  );
  const submittedLine = parsed.find((l) => l.message === 'task submitted');
  t.match(submittedLine, { requestId, taskId, subtasks: 1, module: 'tasks' });
});
