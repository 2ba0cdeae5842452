#!/usr/bin/env node
// The `aimon` bin of package.json: runs the TypeScript entry with the project's
// installed tsx loader, so the CLI needs no build step (like `tsx bin/serve.ts`).
import { register } from 'tsx/esm/api';

register();
await import('./aimon.ts');
