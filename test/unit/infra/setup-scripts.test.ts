/**
 * `npm start` sets up only what serving needs; the test-only tooling
 * (kubernetes-validate for the deployment files test) is set up by `npm test`.
 * Read from the scripts themselves: every infra script a command runs or
 * sources, followed to the end.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT as root } from '../../../infra/processes.js';

/** The infra scripts `script` runs (`bash infra/x.sh`) or sources (`. infra/x.sh`), itself included. */
function scriptsReached(script: string, seen = new Set<string>()): Set<string> {
  if (seen.has(script)) return seen;
  seen.add(script);
  const text = readFileSync(join(root, script), 'utf8');
  for (const m of text.matchAll(
    /(?:^|[\s;(])(?:bash|\.|source)\s+"?(?:\$root\/)?(infra\/[\w.-]+\.sh)/gm,
  )) {
    scriptsReached(m[1]!, seen);
  }
  return seen;
}

const mentionsTestTooling = (script: string) =>
  /kubernetes-validate|kube-validate/.test(readFileSync(join(root, script), 'utf8'));

t.test('npm start reaches no test-only setup', async (t) => {
  const reached = [...scriptsReached('infra/start.sh')];
  t.ok(
    reached.includes('infra/setup.sh'),
    `start sets up what serving needs: ${reached.join(', ')}`,
  );
  t.same(
    reached.filter(mentionsTestTooling),
    [],
    'no script npm start runs installs kubernetes-validate',
  );
});

t.test('npm test sets up the test tooling too', async (t) => {
  const reached = [...scriptsReached('infra/test.sh')];
  t.ok(reached.includes('infra/setup.sh'), 'the serving part');
  t.ok(reached.some(mentionsTestTooling), `kubernetes-validate from one of ${reached.join(', ')}`);
});
