/**
 * When the benchmarks' build (infra/build.ts) is current: a stamp newer than
 * every source file tsc reads. Pure on times, and on a real folder tree.
 */
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildStaleness, sourceTimes } from '../../../infra/build.js';

t.test('stale without a stamp or with a newer source; current otherwise', async (t) => {
  const sources = [
    { path: 'services/a.ts', mtimeMs: 1_000 },
    { path: 'bin/serve.ts', mtimeMs: 3_000 },
  ];
  t.equal(buildStaleness(null, sources), 'no build yet');
  t.equal(buildStaleness(2_000, sources), 'bin/serve.ts changed since');
  t.equal(buildStaleness(3_000, sources), null, 'a source as old as the stamp is built');
  t.equal(buildStaleness(5_000, sources), null);
  t.equal(buildStaleness(0, []), null);
});

t.test('the sources are what tsc reads, outside node_modules', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'build-sources-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const files = [
    'services/a.ts',
    'services/deep/b.json',
    'infra/start.sh',
    'infra/mongo-java/src/LocalMongo.java',
    'bin/aimon.js',
    'crawler/node_modules/x/index.ts',
    'tsconfig.json',
    'README.md',
  ];
  for (const f of files) {
    await mkdir(join(root, f, '..'), { recursive: true });
    await writeFile(join(root, f), '');
  }
  const when = new Date('2026-01-02T03:04:05Z');
  await utimes(join(root, 'services/a.ts'), when, when);
  const times = await sourceTimes(root);
  t.same(times.map((s) => s.path).sort(), [
    'bin/aimon.js',
    'services/a.ts',
    'services/deep/b.json',
    'tsconfig.json',
  ]);
  t.equal(times.find((s) => s.path === 'services/a.ts')?.mtimeMs, when.getTime());
});

t.test("the project's own sources are found", async (t) => {
  const paths = (await sourceTimes()).map((s) => s.path);
  for (const path of ['bin/serve.ts', 'bin/admin.ts', 'services/index.ts', 'tsconfig.build.json'])
    t.ok(paths.includes(path), path);
  t.notOk(
    paths.some((p) => p.startsWith('test/') || p.startsWith('bench/')),
    'not the tests or benchmarks, which the build leaves out',
  );
});
