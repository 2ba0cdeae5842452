/**
 * Preloaded into every node of the soak (NODE_OPTIONS=--import <this file>), so the
 * product's own entry runs unchanged: on SIGUSR2 it forces a full garbage
 * collection and appends one JSON line to $SOAK_PROBE_DIR/<pid>.jsonl with the
 * live heap after it (heapUsed), the rest of process.memoryUsage() and the
 * event-loop delay since the previous sample. A signal and a file, not a
 * service: sampling adds no broker traffic, no socket and no open file between
 * samples to what is measured. Plain JavaScript, so no compiler runs at start.
 * To find what grows: with $SOAK_SNAPSHOT_DIR set, a file `<pid>.want` there
 * makes the next sample write a heap snapshot `<pid>-<time>.heapsnapshot` first
 * (seconds of a blocked loop: that sample's delay figures show it).
 * To find where the CPU goes: with $SOAK_CPU_PROFILE_DIR set, the process runs under
 * V8's sampling profiler from its start and writes `<pid>.cpuprofile` there when it
 * exits (Node refuses `--cpu-prof` in NODE_OPTIONS; the inspector's own session does it).
 */
import { appendFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';

const dir = process.env.SOAK_PROBE_DIR;
if (dir) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const snapshots = process.env.SOAK_SNAPSHOT_DIR;
  process.on('SIGUSR2', () => {
    const want = snapshots && join(snapshots, `${process.pid}.want`);
    if (want && existsSync(want)) {
      rmSync(want);
      writeHeapSnapshot(join(snapshots, `${process.pid}-${Date.now()}.heapsnapshot`));
    }
    const started = performance.now();
    gc();
    const gcMs = performance.now() - started;
    const m = process.memoryUsage();
    const line = {
      at: Date.now(),
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      rss: m.rss,
      gcMs,
      loopP50Ms: delay.percentile(50) / 1e6,
      loopP99Ms: delay.percentile(99) / 1e6,
      loopMaxMs: delay.max / 1e6,
    };
    appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
    // The forced collection blocked the loop; the histogram's timer records that on its next
    // tick. Reset after it, so the next window holds the service's own delays, not ours.
    setTimeout(() => delay.reset(), 50);
  });
}

const profiles = process.env.SOAK_CPU_PROFILE_DIR;
if (profiles) {
  // A session on this thread answers each post synchronously, so the exit handler can write.
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (!err)
        writeFileSync(join(profiles, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
