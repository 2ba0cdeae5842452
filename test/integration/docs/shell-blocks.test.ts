/**
 * The documentation's shell blocks run as written, like doctests: every fenced
 * block with the info string `sh` in README.md and docs/*.md is run in bash
 * (`set -euo pipefail`), the blocks of a page in order in one shell (a variable
 * one block sets is there for the next), against the embedded default started
 * once: every role in one process, its own database, the sandbox platforms, a
 * free loopback port. Each must exit 0. A block marked `sh norun` is not run
 * and says why in a comment line; no shell block goes unmarked.
 *
 * The environment a page's blocks get (a reader has the same after
 * `npm start` and the README's tour):
 *   BASE        the service's base URL (http://127.0.0.1:PORT)
 *   PORT        its port
 *   KEY         the API key of a fresh user (one per page)
 *   MONGO_URL, MONGO_DB   its database, for `npm run admin`
 *   AIMON_CONFIG          the CLI's config file, one per page (`aimon login` writes it)
 *   PATH        with `aimon` on it, as after `npm link`
 *   AIMON_BUILD the suite's build, which `aimon` and `npm run cli|admin` run compiled
 * and the working directory is an empty folder of the page's own under var/.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { startEmbedded } from '../../helpers/cluster.js';
import { fencedBlocks, SHELL_INFO, type DocBlock } from '../../helpers/doc-blocks.js';
import { baseEnv, ROOT } from '../../../infra/processes.js';

/** A page's blocks together; a hung block (a stream that never ends) fails its page. */
const PAGE_LIMIT_MS = 300_000;
// Pages run side by side; each runs a dozen CLI and admin processes.
t.setTimeout(420_000);
const DONE = '::docs-block-done';

const pages = [
  'README.md',
  ...(await readdir(join(ROOT, 'docs')))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const blocksOf = new Map<string, DocBlock[]>();
for (const page of pages) {
  blocksOf.set(
    page,
    fencedBlocks(await readFile(join(ROOT, page), 'utf8')).filter((b) => SHELL_INFO.test(b.info)),
  );
}

const work = join(ROOT, 'var', `docs-blocks-${process.pid}`);
await rm(work, { recursive: true, force: true });
await mkdir(join(work, 'bin'), { recursive: true });
await symlink(join(ROOT, 'bin/aimon.js'), join(work, 'bin/aimon'));
t.teardown(() => rm(work, { recursive: true, force: true }));

const svc = await startEmbedded(t, { SERVICES: 'all', SANDBOX_LATENCY_MS: '100' });
const port = new URL(svc.client.baseUrl).port;

interface PageRun {
  /** Per runnable block: its output, and whether it got to its end. */
  blocks: { block: DocBlock; output: string; passed: boolean }[];
  code: number | null;
  timedOut: boolean;
}

async function runPage(page: string, blocks: DocBlock[]): Promise<PageRun> {
  const dir = join(work, page.replace(/[^\w.-]+/g, '_'));
  await mkdir(dir, { recursive: true });
  const lines = ['set -euo pipefail', 'exec 2>&1'];
  for (const [i, b] of blocks.entries()) {
    // A file per block, so bash's own error messages name the page and line.
    const file = join(dir, `${page.replace(/\W+/g, '_')}-line-${b.line}.sh`);
    await writeFile(file, `${b.text}\n`);
    lines.push(`source ${JSON.stringify(file)} </dev/null`, `printf '\\n${DONE} ${i}\\n'`);
  }
  const script = join(dir, 'page.sh');
  await writeFile(script, `${lines.join('\n')}\n`);
  const user = await svc.newUser(`docs ${page}`);
  const child = spawn('bash', [script], {
    cwd: dir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...baseEnv(),
      PATH: `${join(work, 'bin')}:${process.env.PATH ?? ''}`,
      BASE: svc.client.baseUrl,
      PORT: port,
      KEY: user.apiKey,
      MONGO_URL: svc.config.mongoUrl,
      MONGO_DB: svc.config.mongoDb,
      AIMON_CONFIG: join(dir, 'aimon.json'),
      // `aimon`, `npm run cli` and `npm run admin` run the suite's build (a third of the CPU
      // they take through tsx); test/integration/cli/bin-shim runs the shim through tsx.
      AIMON_BUILD: join(ROOT, 'var/build'),
    },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    process.kill(-child.pid!, 'SIGKILL');
  }, PAGE_LIMIT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  const parts = out.split(new RegExp(`\\n${DONE} (\\d+)\\n`));
  const done = new Set(parts.filter((_, i) => i % 2 === 1).map(Number));
  return {
    code,
    timedOut,
    blocks: blocks.map((block, i) => ({
      block,
      output: parts[2 * i] ?? '',
      passed: done.has(i),
    })),
  };
}

// The runner itself, on a page of its own: a failing block fails, the next is not reached.
const shBlock = (line: number, text: string): DocBlock => ({ line, info: 'sh', text });
const runnerCheck = await runPage('runner-check.md', [
  shBlock(1, 'GREETING=$(echo hello)'),
  shBlock(2, 'test "$GREETING" = hello   # set by the block before\nfalse\necho not here'),
  shBlock(3, 'true'),
]);

const runnable = [...blocksOf].map(
  ([page, blocks]) => [page, blocks.filter((b) => b.info === 'sh')] as const,
);
const runs = await Promise.all(runnable.map(([page, blocks]) => runPage(page, blocks)));

// Every await is done: the subtests only assert.
t.test('every shell block is marked sh or sh norun, and a norun block says why', async (t) => {
  for (const [page, blocks] of blocksOf) {
    for (const b of blocks) {
      const where = `${page}:${b.line}`;
      t.ok(b.info === 'sh' || b.info === 'sh norun', `${where}: info string "${b.info}"`);
      if (b.info === 'sh norun') t.match(b.text, /^\s*#\s*\S/m, `${where}: a comment says why`);
    }
  }
});

t.test('the runner: a failing block fails, and the next is not reached', async (t) => {
  t.same(
    runnerCheck.blocks.map((b) => b.passed),
    [true, false, false],
  );
  t.notMatch(runnerCheck.blocks[1]!.output, /not here/, 'set -e stops the block at its failure');
  t.not(runnerCheck.code, 0);
});

runnable.forEach(([page], i) => {
  const run = runs[i]!;
  if (run.blocks.length === 0) return;
  t.test(`${page}: its sh blocks run`, async (t) => {
    let failed = false;
    for (const { block, output, passed } of run.blocks) {
      const where = `${page}:${block.line}`;
      if (failed) {
        t.fail(`${where}: not reached, an earlier block failed`);
        continue;
      }
      failed = !passed;
      t.ok(passed, `${where} exits 0`, {
        exitCode: passed ? 0 : run.code,
        timedOut: run.timedOut,
        block: block.text,
        output: output.slice(-4000),
      });
    }
  });
});
