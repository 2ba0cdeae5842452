// Loaded into every test process (package.json tap `node-arg`), before the test file.
//
// The TypeScript loader only for a TypeScript test file: `npm test` runs the tests compiled in
// var/build (infra/test.sh), where tsx's loader thread and a transform lookup per module would be
// pure cost (about 0.7 s of CPU a process); `tap test/….test.ts` runs a file from its sources.
//
// tap's processinfo hooks every spawn so that each child node process loads its module-recording
// loader too: a loader thread and a message per module, on every service node, CLI run and
// stand-in the tests start (a fifth of a cluster file's CPU, docs/testing.md). That record serves
// coverage only, so without coverage the children start plain.
import processOnSpawn from 'process-on-spawn';

if (process.argv[1]?.endsWith('.ts')) await import('tsx');
if (process.env._TAPJS_PROCESSINFO_COVERAGE_ !== '1') processOnSpawn.removeAllListeners();

// No rejection goes unheard (docs/testing.md, "Unhandled rejections"). One in this process, or
// one a child node reported (infra/processes.ts publishes its UNHANDLED REJECTION lines), fails
// the file: it is printed at once and the process exits non-zero, after its teardown has run
// (Node's own default would end the process at once, leaving children and databases behind).
const { subscribe } = await import('node:diagnostics_channel');
const seen = [];
process.on('unhandledRejection', (reason) => {
  seen.push(`in the test process: ${reason instanceof Error ? reason.stack : String(reason)}`);
  console.error(`# UNHANDLED REJECTION in the test process:`, reason);
});
subscribe('aimon:child-unhandled-rejection', ({ script, pid, line }) => {
  seen.push(`in ${script} (pid ${pid}): ${line}`);
  console.error(`# UNHANDLED REJECTION reported by ${script} (pid ${pid}): ${line}`);
});
process.on('exit', () => {
  if (seen.length === 0) return;
  console.error(`# ${seen.length} unhandled rejection(s): the file fails`);
  process.exitCode = 1;
});
