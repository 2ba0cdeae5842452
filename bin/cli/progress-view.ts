/**
 * Shows a task's progress on stderr: a cli-progress bar on a terminal, plain
 * lines (one per change of the counters or the status) otherwise, so logs
 * and pipes get readable text instead of cursor movements.
 */
import { Presets, SingleBar } from 'cli-progress';
import { progressLine, type TaskProgress } from './task-progress.js';

export interface ProgressView {
  update(p: TaskProgress): void;
  stop(): void;
}

export function progressView(out: NodeJS.WriteStream = process.stderr): ProgressView {
  return out.isTTY ? barView(out) : lineView(out);
}

function barView(out: NodeJS.WriteStream): ProgressView {
  const bar = new SingleBar(
    {
      stream: out,
      format: '{bar} {value}/{total} sub tasks | {completed} completed, {failed} failed | {status}',
      hideCursor: true,
      clearOnComplete: false,
    },
    Presets.shades_classic,
  );
  let started = false;
  // The bar hides the cursor; Ctrl-C must give it back before the process ends.
  const interrupted = () => {
    bar.stop();
    process.exit(130);
  };
  return {
    update(p) {
      const payload = { completed: p.completed, failed: p.failed, status: p.status };
      if (!started) {
        bar.start(p.total, p.settled, payload);
        started = true;
        process.once('SIGINT', interrupted);
        return;
      }
      bar.setTotal(p.total);
      bar.update(p.settled, payload);
    },
    stop() {
      if (!started) return;
      process.off('SIGINT', interrupted);
      bar.stop();
    },
  };
}

function lineView(out: NodeJS.WriteStream): ProgressView {
  let last = '';
  return {
    update(p) {
      const line = progressLine(p);
      if (line === last) return;
      last = line;
      out.write(`${line}\n`);
    },
    stop: () => undefined,
  };
}
