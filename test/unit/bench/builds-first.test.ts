/**
 * A benchmark that starts bin/ entries as child processes runs them compiled
 * from var/build (infra/processes.ts builtEntry), which a checkout where only
 * `npm start` ran does not have: each such benchmark builds it first
 * (infra/build.ts ensureBuild, called by bench/pipeline/bench-run.ts before the
 * first node starts). Read from the sources: every `npm run bench*` script
 * (its shell script followed to the tsx entry) and every bench/*.bench.ts.
 * The tiny runs in test/integration/bench/ show the call's line in the output.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from '../../../infra/processes.js';
import { modulesReached } from '../../helpers/import-graph.js';

/** The TypeScript entry an npm script runs, through its bash script if it has one. */
function entryOf(command: string): string {
  const sh = /^bash (bench\/[\w.-]+\.sh)/.exec(command)?.[1];
  const text = sh ? readFileSync(join(ROOT, sh), 'utf8') : command;
  const entry = /\btsx (bench\/[\w./-]+\.ts)/.exec(text)?.[1];
  if (!entry) throw new Error(`no tsx entry in ${sh ?? command}`);
  return entry;
}

const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
const entries = new Set([
  ...Object.entries(scripts)
    .filter(([name]) => /^bench(:|$)/.test(name))
    .map(([, command]) => entryOf(command)),
  ...readdirSync(join(ROOT, 'bench'))
    .filter((f) => f.endsWith('.bench.ts'))
    .map((f) => `bench/${f}`),
]);

t.test('every benchmark that starts built entries builds them first', async (t) => {
  const starting: string[] = [];
  for (const entry of [...entries].sort()) {
    const reached = modulesReached(ROOT, entry);
    if (!reached.has('infra/processes.ts')) continue;
    starting.push(entry);
    t.ok(reached.has('infra/build.ts'), `${entry} reaches infra/build.ts`);
  }
  // The check is not empty: the cluster benchmarks start their nodes from the build.
  t.ok(starting.includes('bench/pipeline.bench.ts'), starting.join(', '));
  t.ok(starting.includes('bench/web.bench.ts'), starting.join(', '));
});
