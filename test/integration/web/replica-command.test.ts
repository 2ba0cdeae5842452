/**
 * `npm run replica -- <site> --drift … | --drift-seed N`: a developer serves a
 * site drifted by name, or exactly as the site contract drew it for a seed
 * (the seed its failure printed), and a drift it does not know is refused.
 */
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, startProcess } from '../../../infra/processes.js';
import { drawSiteDrifts } from '../../../replicas/common/drift-sample.js';

const stateFile = join(mkdtempSync(join(tmpdir(), 'replica-')), 'state.json');

t.test('a seed serves the combination the site contract drew for it', async (t) => {
  const p = startProcess(
    'bin/replica.ts',
    ['kimi', '--drift-seed', '41', '--state-file', stateFile],
    {},
  );
  t.teardown(() => p.stop());
  const [, url, drifts] = await p.waitFor(/kimi replica: (\S+) \(drifted: ([^)]*)\)/);
  t.same(drifts!.split(', '), drawSiteDrifts(41, 'kimi', 'page'));
  t.equal((await fetch(url!)).status, 200, 'it serves its page');
});

t.test('drifts by name; an unknown one is refused', async (t) => {
  const p = startProcess(
    'bin/replica.ts',
    ['deepseek', '--drift', 'renamed_classes,slow_first_byte', '--state-file', stateFile],
    {},
  );
  t.teardown(() => p.stop());
  await p.waitFor(/deepseek replica: \S+ \(drifted: renamed_classes, slow_first_byte\)/);
  const bad = await runProcess('bin/replica.ts', ['deepseek', '--drift', 'tilted_page'], {});
  t.equal(bad.code, 2);
  t.match(bad.output, /unknown drift tilted_page; drifts: none, renamed_classes/);
});
