#!/usr/bin/env node
// The `aimon` bin of package.json: runs the TypeScript entry with the project's
// installed tsx loader, so the CLI needs no build step (like `tsx bin/serve.ts`).
// With AIMON_BUILD naming a build's output folder (the test suite's var/build),
// it runs the compiled entry there instead: a third of the CPU of each run.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const build = process.env.AIMON_BUILD;
if (build) {
  await import(pathToFileURL(resolve(build, 'bin/aimon.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./aimon.ts');
}
