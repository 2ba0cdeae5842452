// Loaded into every test process (package.json tap `node-arg`). tap's processinfo hooks every
// spawn so that each child node process loads its module-recording loader too: a loader thread
// and a message per module, on every service node, CLI run and stand-in the tests start (a
// third of a cluster file's CPU, docs/testing.md). That record serves coverage only, so without
// coverage the children start plain.
import processOnSpawn from 'process-on-spawn';

if (process.env._TAPJS_PROCESSINFO_COVERAGE_ !== '1') processOnSpawn.removeAllListeners();
