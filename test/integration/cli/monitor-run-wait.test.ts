/**
 * `aimon monitor run --wait` as a child process against the embedded service
 * and the sandbox: the progress of each task of the run on stderr (as
 * `status --wait` shows it), adaptive sampling's follow-up tasks followed
 * too, the finished run on stdout, and the exit code of how its tasks ended
 * (every one completed 0, some sub tasks failed 2, all failed 3).
 */
import t from 'tap';
import { brandsFor } from '../../../sandbox/answers.js';
import { runViewSchema } from '../../../services/shared/contracts/monitors.js';
import { aimon, startCliService } from '../../helpers/aimon.js';

const { svc, user, env } = await startCliService(t, 20);
const M = '/api/business/monitor/monitors';
const PROMPT = 'best CRM for a small team';
const BRAND = brandsFor(PROMPT)[0]!.name;

async function monitor(name: string, prompts: string[], samples: unknown): Promise<string> {
  const res = await svc.client.post(
    M,
    {
      name,
      prompts,
      platforms: [{ platform: 'sandbox', mode: 'search' }],
      monitorKeywords: `${BRAND}, Nobody Inc`,
      samples,
      schedule: { everyMinutes: 1440 },
      enabled: false,
    },
    user.token,
  );
  if (res.status !== 200) throw new Error(res.text);
  return res.body.data.monitorId as string;
}

const progressLines = (stderr: string) => stderr.split('\n').filter((l) => / sub tasks: /.test(l));

t.test('a run whose asks all answer: progress, follow-ups, the finished run, exit 0', async (t) => {
  // About half of this prompt's answers name the brand (sandbox `#vary:`): follow-up rounds.
  const varying = Array.from({ length: 50 }, (_, i) => `which CRM varies ${i}`).find(
    (text) => brandsFor(text)[0]!.name === BRAND,
  )!;
  const id = await monitor('adaptive', [PROMPT, `${varying} #vary:50`], {
    min: 3,
    max: 8,
    targetWidth: 0.45,
  });
  const run = await aimon(['monitor', 'run', id, '--wait'], env, { timeoutMs: 120_000 });
  t.equal(run.code, 0, 'exit code 0', { stderr: run.stderr });
  t.match(run.stdout, /^run [0-9a-f-]{36} \(manual, slot .*\): finished, \d+ samples taken/m);
  t.match(run.stdout, /^region \(none\): task [0-9a-f-]{36} completed, \d+ follow-up tasks/m);
  t.match(run.stderr, /^region \(none\): task [0-9a-f-]{36}$/m, 'the region task is named');
  t.match(
    run.stderr,
    /^region \(none\), follow-up round 1: task [0-9a-f-]{36}$/m,
    'a follow-up task is followed too',
  );
  const progress = progressLines(run.stderr);
  t.ok(progress.length >= 2, 'plain progress lines, stderr being a pipe');
  t.match(
    progress[0],
    /^\d+\/6 sub tasks: \d+ completed, 0 failed \((pending|processing|completed)\)$/,
  );
  t.match(progress.at(-1), /^\d+\/\d+ sub tasks: \d+ completed, 0 failed \(completed\)$/);
  t.notMatch(run.stderr, /\u001b\[/, 'no cursor movements on a pipe');

  const stored = runViewSchema.parse(
    (await svc.client.get(`${M}/${id}/runs`, user.token)).body.data.runs[0],
  );
  t.equal(stored.status, 'finished', 'the service agrees: the run had ended');
  t.ok(stored.regions[0]!.followUps.length >= 1, 'with follow-up rounds');

  const json = await aimon(['monitor', 'run', id, '--wait', '--json'], env, {
    timeoutMs: 120_000,
  });
  t.equal(json.code, 0, json.stderr);
  t.equal(runViewSchema.parse(JSON.parse(json.stdout)).status, 'finished', '--json: the ended run');
});

t.test('some sub tasks fail: exit 2; all fail: exit 3', async (t) => {
  const partial = await monitor('partial', [PROMPT, 'broken #fail:401'], 1);
  const some = await aimon(['monitor', 'run', partial, '--wait'], env, { timeoutMs: 60_000 });
  t.equal(some.code, 2, 'exit code 2', { stderr: some.stderr });
  t.match(some.stdout, /^region \(none\): task [0-9a-f-]{36} partial_completed/m);
  t.equal(
    progressLines(some.stderr).at(-1),
    '2/2 sub tasks: 1 completed, 1 failed (partial_completed)',
  );

  const failing = await monitor('failing', ['broken #fail:401'], 1);
  const none = await aimon(['monitor', 'run', failing, '--wait'], env, { timeoutMs: 60_000 });
  t.equal(none.code, 3, 'exit code 3', { stderr: none.stderr });
  t.match(none.stdout, /^region \(none\): task [0-9a-f-]{36} failed/m);
});

t.test('without --wait the run is printed as it started, exit 0', async (t) => {
  const id = await monitor('quick', [PROMPT], 1);
  const run = await aimon(['monitor', 'run', id], env);
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /^run [0-9a-f-]{36} \(manual, slot .*\): (starting|running)/m);
  t.equal(progressLines(run.stderr).length, 0, 'no progress');
});
