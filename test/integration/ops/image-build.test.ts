/**
 * What `docker build` would do, without a Docker daemon: the build context is
 * exactly the files `.dockerignore` lets through (read with Docker's own
 * rules by @balena/dockerignore); each stage's filesystem is a directory; the
 * Dockerfile's COPY, WORKDIR and RUN steps run there in order. Two steps are
 * stood in for, as they need the network: `npm ci` links the checkout's own
 * install, and `apt-get` lines are recorded as the packages the image holds.
 * The image's CMD then starts far enough to print its configuration.
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, posix } from 'node:path';
import { promisify } from 'node:util';
import dockerignore from '@balena/dockerignore';
import t from 'tap';
import {
  copyParts,
  execForm,
  readDockerfile,
  stageEnv,
  type Instruction,
  type Stage,
} from '../../helpers/dockerfile.js';
import { ROOT as root } from '../../../infra/processes.js';

// The build compiles the whole project: about 25 s of CPU, minutes on a busy machine.
t.setTimeout(420_000);
const work = mkdtempSync(join(tmpdir(), 'image-build-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

/** The files (and symlinks) `docker build .` sends, relative to the root. */
function contextFiles(): string[] {
  const rules = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n');
  // A CommonJS module whose types describe its `default` export.
  const ignore = dockerignore.default().add(rules);
  // As Docker does, an ignored folder is skipped whole unless an exception (`!`) could re-add a part.
  const exceptions = rules.some((r) => r.trim().startsWith('!'));
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return ignore.ignores(path) && !exceptions ? [] : walk(path);
      return ignore.ignores(path) ? [] : [path];
    });
  return walk('');
}

const context = join(work, 'context');
const sent = contextFiles();
for (const file of sent) {
  mkdirSync(dirname(join(context, file)), { recursive: true });
  cpSync(join(root, file), join(context, file), { verbatimSymlinks: true });
}

/** One stage's filesystem, its working directory, its environment and the apt packages it installed. */
interface StageState {
  fs: string;
  workdir: string;
  env: Record<string, string>;
  packages: string[];
  runs: { command: string; status: number | null; output: string }[];
  /** The step that failed (a COPY of a file the context lacks, say), as Docker would stop there. */
  failed?: string;
}

/** The environment of a process in a stage: its ENV over a bare PATH and HOME. */
const processEnv = (s: StageState) => ({
  PATH: process.env.PATH ?? '',
  HOME: work,
  NPM_CONFIG_UPDATE_NOTIFIER: 'false',
  ...s.env,
});

const states = new Map<string, StageState>();

/** `path` of the stage's filesystem as a path of this machine. */
const inStage = (s: StageState, path: string) =>
  join(s.fs, isAbsolute(path) ? path : posix.join(s.workdir, path));

const execFileAsync = promisify(execFile);

/** A command run in a stage: its exit status, its stdout, and stdout with stderr. */
async function exec(s: StageState, file: string, args: string[]) {
  try {
    const r = await execFileAsync(file, args, {
      cwd: inStage(s, '.'),
      env: processEnv(s),
      maxBuffer: 16 * 1024 * 1024,
    });
    return { status: 0, stdout: r.stdout, output: `${r.stdout}${r.stderr}` };
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string; message: string };
    const output = `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message;
    return { status: typeof e.code === 'number' ? e.code : null, stdout: e.stdout ?? '', output };
  }
}

async function build(stage: Stage): Promise<StageState> {
  const s: StageState = {
    fs: join(work, `stage-${stage.name}`),
    workdir: '/',
    env: stageEnv(stage),
    packages: [],
    runs: [],
  };
  mkdirSync(s.fs, { recursive: true });
  for (const step of stage.steps) {
    try {
      await runStep(s, step);
    } catch (err) {
      s.failed = `${step.keyword} ${step.args}: ${(err as Error).message}`;
    }
    if (s.failed) break;
  }
  return s;
}

/** Where a COPY puts one source: into a folder (`dest/`, or `.` copied whole) or as the file `dest`. */
function copyTarget(s: StageState, source: string, dest: string): string {
  if (source === '.' || !dest.endsWith('/')) return inStage(s, dest);
  return inStage(s, posix.join(dest, posix.basename(source)));
}

async function runStep(s: StageState, step: Instruction): Promise<void> {
  if (step.keyword === 'WORKDIR') {
    s.workdir = posix.resolve(s.workdir, step.args);
    mkdirSync(inStage(s, '.'), { recursive: true });
  } else if (step.keyword === 'COPY') {
    const { flags, sources, dest } = copyParts(step);
    const from = flags.from === undefined ? undefined : states.get(flags.from)!;
    for (const source of sources) {
      const target = copyTarget(s, source, dest);
      mkdirSync(dirname(target), { recursive: true });
      cpSync(from ? inStage(from, source) : join(context, source), target, {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
  } else if (step.keyword === 'RUN' && step.args === 'npm ci') {
    symlinkSync(realpathSync(join(root, 'node_modules')), inStage(s, 'node_modules'));
  } else if (step.keyword === 'RUN' && /^apt-get\b/.test(step.args)) {
    const install = /apt-get install\s+((?:\S+\s*)+?)(?:&&|$)/.exec(step.args)?.[1] ?? '';
    s.packages.push(...install.split(/\s+/).filter((w) => w && !w.startsWith('-')));
  } else if (step.keyword === 'RUN') {
    const r = await exec(s, 'sh', ['-c', step.args]);
    s.runs.push({ command: step.args, status: r.status, output: r.output });
    if (r.status !== 0) s.failed = `RUN ${step.args}`;
  }
}

const stages = readDockerfile(root);
for (const stage of stages) {
  const state = await build(stage);
  states.set(stage.name, state);
  // As docker build, a failed step ends the build: later stages are not built.
  if (state.failed) break;
}
const buildStage = states.get('build')!;
/** The image: the last stage, if the build got that far. */
const runtime = states.get(stages.at(-1)!.name);

t.test('the build context holds what the build compiles, and no tests', async (t) => {
  t.ok(sent.includes('bin/replica.ts'), 'the replica command is sent');
  t.ok(
    sent.some((f) => f.startsWith('replicas/')),
    'and the replicas it serves',
  );
  t.strictSame(
    sent.filter((f) => /^(test|bench|var|node_modules)\//.test(f)),
    [],
    'tests, benchmarks and local state stay out',
  );
});

t.test('every step of every stage succeeds in the context copy', async (t) => {
  t.ok(buildStage.runs.length > 0, 'the build stage runs its build');
  for (const run of buildStage.runs) t.equal(run.status, 0, run.command, { output: run.output });
  for (const [name, state] of states) t.equal(state.failed, undefined, `stage ${name}`);
});

t.test("the image's CMD starts and prints its configuration", async (t) => {
  if (!runtime) return t.fail('the build stopped before the image');
  t.ok(existsSync(inStage(runtime, 'var/web/index.html')), 'the dashboard is built into the image');
  const cmd = execForm(stages.at(-1)!.steps.findLast((s) => s.keyword === 'CMD')!);
  const r = await exec(runtime, cmd[0]!, [...cmd.slice(1), '--print-config']);
  t.equal(r.status, 0, cmd.join(' '), { output: r.output });
  const config = JSON.parse(r.stdout) as Record<string, any>;
  t.match(config, {
    host: '0.0.0.0',
    port: 3000,
    services: ['api', 'tasks', 'users', 'scheduler', 'crawler', 'callbacks', 'proxies', 'accounts'],
    crawler: { chromiumPath: '/usr/bin/chromium' },
  });
});

t.test('the runtime image has what crawler hosts need', async (t) => {
  if (!runtime) return t.fail('the build stopped before the image');
  for (const pkg of ['chromium', 'fonts-noto-cjk', 'fonts-noto-color-emoji', 'tini']) {
    t.ok(runtime.packages.includes(pkg), `apt installs ${pkg}`);
  }
  const policies = join(runtime.fs, 'etc/chromium/policies/managed');
  const files = existsSync(policies) ? readdirSync(policies) : [];
  t.equal(files.length, 1, 'one managed policy file');
  t.strictSame(
    files.map((f) => JSON.parse(readFileSync(join(policies, f), 'utf8'))).at(0),
    JSON.parse(readFileSync(join(root, 'infra/chromium-policy.json'), 'utf8')),
    "Chromium's own traffic is switched off as on a set-up host",
  );
});
