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
