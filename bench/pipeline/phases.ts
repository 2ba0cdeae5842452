/** Logs on stderr, next to the nodes' logs, how long each step of a run took. */
import { performance } from 'node:perf_hooks';

export function phaseTimer(): { phase: (name: string) => void; total: () => number } {
  const now = () => performance.now();
  const started = now();
  let last = started;
  return {
    phase(name) {
      const t = now();
      console.error(`bench: ${name} took ${((t - last) / 1000).toFixed(1)} s`);
      last = t;
    },
    total: () => now() - started,
  };
}
