/** Runs the load generator (load.ts) in a child process and waits for its figures. */
import { fork } from 'node:child_process';
import type { LoadFigures, LoadPlan } from './load.js';

export function loadFromChild(plan: LoadPlan): Promise<LoadFigures> {
  // fork() passes this process's execArgv on, so the child runs TypeScript through tsx too.
  const child = fork(new URL('./load.ts', import.meta.url), [], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    const kill = setTimeout(
      () => {
        child.kill('SIGKILL');
        reject(new Error('load generator overran its time'));
      },
      plan.seconds * 1000 + 60_000,
    );
    child.once('message', (msg: { figures?: LoadFigures; error?: string }) => {
      clearTimeout(kill);
      if (msg.figures) resolve(msg.figures);
      else reject(new Error(`load generator failed: ${msg.error}`));
    });
    child.once('exit', (code) => {
      clearTimeout(kill);
      reject(new Error(`load generator exited with ${code} before answering`));
    });
    child.send(plan);
  });
}
