/**
 * `aimon submit --wait` as a child process against the embedded service and
 * the sandbox platform: plain progress lines on a piped stderr, the summary
 * tables, and the exit code of each final state (completed 0, partial 2,
 * failed 3); a refused submission prints every violated rule once and exits 1.
 */
import t from 'tap';
import { aimon, startCliService } from '../../helpers/aimon.js';

const { svc, user, env } = await startCliService(t, 60, {
  RETRY_BASE_MS: '50',
  RETRY_MAX_MS: '100',
});
const M = '/api/business/monitor';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

t.test('a batch that completes: task id, progress lines, summary, exit 0', async (t) => {
  const run = await aimon(
    ['submit', 'alpha', 'beta', '-p', 'sandbox:search', '-p', 'sandbox-cn:reasoning', '--wait'],
    env,
  );
  t.equal(run.code, 0, 'exit code 0', { stderr: run.stderr });
  const [taskId, headline] = run.stdout.split('\n');
  t.match(taskId, UUID, 'the task id comes first');
  t.equal(headline, `task ${taskId}: completed (4 completed, 0 failed, 4 sub tasks)`);
  t.match(run.stderr, `submitted 4 sub tasks as task ${taskId}`);
  const progress = run.stderr.split('\n').filter((l) => / sub tasks: /.test(l));
  t.ok(progress.length >= 2, 'a plain line per change, stderr being a pipe');
  t.equal(progress.at(-1), '4/4 sub tasks: 4 completed, 0 failed (completed)');
  t.notMatch(run.stderr, /\u001b\[/, 'no cursor movements on a pipe');
  // platform × status counts, then prompt × platform
  t.match(run.stdout, /│ platform\s+│ completed │ total │/);
  t.match(run.stdout, /│ sandbox \(api\)\s+│ 2\s+│ 2\s+│/);
  t.match(run.stdout, /│ prompt │ sandbox \(api\) │ sandbox-cn \(api\) │/);
  t.match(run.stdout, /│ alpha\s+│ completed\s+│ completed\s+│/);

  const status = await svc.client.get(`${M}/task/status/${taskId}`, user.token);
  t.equal(status.body.data.status, 'completed', 'the service agrees');
  t.same(
    status.body.data.subTaskList.map((s: { mode: string }) => s.mode).sort(),
    ['reasoning', 'reasoning', 'search', 'search'],
    'modes reached the API',
  );
});

t.test('some sub tasks fail: partial_completed exits 2, the summary shows them', async (t) => {
  const run = await aimon(['submit', 'fine', 'broken #fail:401', '-p', 'sandbox', '--wait'], env);
  t.equal(run.code, 2, 'exit code 2', { stderr: run.stderr });
  t.match(run.stdout, /: partial_completed \(1 completed, 1 failed, 2 sub tasks\)/);
  t.match(
    run.stdout,
    /│ sandbox \(api\)\s+│ 1\s+│ 1\s+│ 2\s+│/,
    "one completed, one error (the vendor's 401)",
  );
  t.match(run.stdout, /│ broken #fail:401 │ error\s+│/);
});

t.test('every sub task fails: failed exits 3; status --wait on it says the same', async (t) => {
  const run = await aimon(['submit', 'no #fail:401', '-p', 'sandbox', '--wait'], env);
  t.equal(run.code, 3, 'exit code 3', { stderr: run.stderr });
  const taskId = run.stdout.split('\n')[0]!;
  t.match(run.stdout, /: failed \(0 completed, 1 failed, 1 sub tasks\)/);
  const again = await aimon(['status', taskId, '--wait'], env);
  t.equal(again.code, 3, 'a final task: snapshot and done at once');
  t.match(again.stdout, `task ${taskId}: failed`);
});

t.test('a refused submission prints every violated rule once and exits 1', async (t) => {
  const run = await aimon(
    [
      'submit',
      'a prompt',
      '-p',
      'nosuch:search',
      '-p',
      'sandbox:flying',
      '--region',
      '12x',
      '--callback',
      'ftp://example.com/hook',
    ],
    env,
  );
  t.equal(run.code, 1);
  t.equal(run.stdout, '', 'no task id');
  const lines = run.stderr.trim().split('\n');
  t.equal(lines[0], 'error: the service refused the submission (HTTP 400):');
  for (const field of [
    'platforms[0].platform',
    'platforms[1].mode',
    'regionCode[0]',
    'callbackUrl',
  ]) {
    t.equal(
      run.stderr.split(`${field}: `).length - 1,
      1,
      `${field} is printed once, on its own line`,
    );
    t.ok(lines.some((l) => l.startsWith(`  - ${field}: `)));
  }
  t.match(run.stderr, /unknown platform; valid platforms: .*sandbox/);
});

t.test(
  'prompts from a file, one per line, after the arguments; bad specs are usage errors',
  async (t) => {
    const [bad, none, run] = await Promise.all([
      aimon(['submit', 'x', '-p', 'sandbox::web'], env),
      aimon(['submit', '-p', 'sandbox'], env),
      aimon(['submit', 'first', '--file', '-', '-p', 'sandbox', '--json'], env, {
        stdin: '\uFEFFsecond\r\n\r\nthird\n',
      }),
    ]);
    t.equal(bad.code, 1);
    t.match(bad.stderr, /bad platform "sandbox::web"/);
    t.equal(none.code, 1);
    t.match(none.stderr, /no prompts/);
    t.equal(run.code, 0, 'exit code 0', { stderr: run.stderr });
    const data = JSON.parse(run.stdout) as { totalTask: number; subTaskList: { prompt: string }[] };
    t.equal(data.totalTask, 3);
    t.same(
      data.subTaskList.map((s) => s.prompt),
      ['first', 'second', 'third'],
    );
  },
);
