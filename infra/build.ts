/**
 * The compiled build in var/build that child processes of bin/ entries run
 * (processes.ts builtEntry): a benchmark that starts them makes it, or brings
 * it up to date, before its first node starts, so a checkout where only
 * `npm start` ran needs no `npm test` first. It is current while no source is
 * newer than its stamp, which the build writes with the time it began (and
 * infra/test.sh writes after its own, larger, build into the same folder).
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../services/shared/project-root.js';

export const BUILD_DIR = join(PROJECT_ROOT, 'var/build');
export const BUILD_STAMP = join(BUILD_DIR, '.built');

/** What tsconfig.build.json compiles, and what decides its output. */
const SOURCES = [
  'services',
  'crawler',
  'sandbox',
  'replicas',
  'bin',
  'infra',
  'moleculer.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'package-lock.json',
];

/** Files in those folders that tsc reads; a shell script or a Java file changes nothing. */
const COMPILED = /\.(?:[cm]?[jt]sx?|json)$/;

export interface SourceTime {
  path: string;
  mtimeMs: number;
}

/**
 * Why the build must be made (pure): no stamp, or the first source newer than
 * it; null when it is current.
 */
export function buildStaleness(
  stampMs: number | null,
  sources: Iterable<SourceTime>,
): string | null {
  if (stampMs === null) return 'no build yet';
  for (const s of sources) if (s.mtimeMs > stampMs) return `${s.path} changed since`;
  return null;
}

/** The modification times of every source file, relative paths. */
export async function sourceTimes(root = PROJECT_ROOT): Promise<SourceTime[]> {
  const times: SourceTime[] = [];
  const visit = async (path: string): Promise<void> => {
    const info = await stat(join(root, path)).catch(() => undefined);
    if (!info) return;
    if (!info.isDirectory()) {
      if (SOURCES.includes(path) || COMPILED.test(path))
        times.push({ path, mtimeMs: info.mtimeMs });
      return;
    }
    for (const entry of await readdir(join(root, path))) {
      if (entry !== 'node_modules') await visit(join(path, entry));
    }
  };
  for (const source of SOURCES) await visit(source);
  return times;
}

async function stampTime(): Promise<number | null> {
  const info = await stat(BUILD_STAMP).catch(() => undefined);
  return info ? info.mtimeMs : null;
}

/**
 * Makes var/build current: compiles tsconfig.build.json into it when a
 * source is newer than the stamp (tsc on one core, about a minute), then
 * stamps it. `say` gets one line either way.
 */
export async function ensureBuild(say: (line: string) => void = console.error): Promise<void> {
  const why = buildStaleness(await stampTime(), await sourceTimes());
  if (why === null) {
    say('build: var/build is current');
    return;
  }
  say(`build: compiling var/build (${why})`);
  const began = new Date();
  const tsc = spawn(
    join(PROJECT_ROOT, 'node_modules/.bin/tsc'),
    // Source maps as infra/test.sh makes them, so both builds in one folder agree.
    ['-p', 'tsconfig.build.json', '--sourceMap', '--outDir', BUILD_DIR],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    tsc.once('error', reject);
    tsc.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`tsc -p tsconfig.build.json exited ${code}`);
  await mkdir(BUILD_DIR, { recursive: true });
  await writeFile(BUILD_STAMP, '');
  await utimes(BUILD_STAMP, began, began);
  say(`build: var/build compiled in ${((Date.now() - began.getTime()) / 1000).toFixed(1)} s`);
}
