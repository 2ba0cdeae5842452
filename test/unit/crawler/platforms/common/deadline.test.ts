/**
 * A driver's deadline fires even when garbage collections run while it waits:
 * on Node 20 a bare `AbortSignal.any([.., AbortSignal.timeout(ms)])` loses its
 * timeout to the collector and never aborts (nodejs/node#57736), which left a
 * stalled platform answer hanging past its deadline.
 */
import t from 'tap';
import v8 from 'node:v8';
import vm from 'node:vm';
import { deadlineSignal } from '../../../../../crawler/platforms/common/http.js';
import type { Job } from '../../../../../crawler/platforms/types.js';

v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc') as () => void;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const settings = (timeoutMs: number) => ({ apiBaseUrl: '', webUrl: '', timeoutMs });
const job = (signal: AbortSignal): Job => ({ prompt: 'q', mode: 'standard', signal });

t.test('the deadline aborts the signal, whatever the collector does meanwhile', async (t) => {
  const signal = deadlineSignal(job(new AbortController().signal), settings(100));
  for (let i = 0; i < 5; i++) {
    gc();
    await sleep(5);
  }
  await sleep(250);
  t.ok(signal.aborted, 'aborted at the deadline');
  t.equal((signal.reason as Error).name, 'TimeoutError');
});

t.test('the job ending first ends it too, with the job’s reason', async (t) => {
  const lease = new AbortController();
  const signal = deadlineSignal(job(lease.signal), settings(60_000));
  lease.abort(new Error('lease lost'));
  t.ok(signal.aborted);
  t.match(signal.reason, { message: 'lease lost' });
});

t.test('without a deadline it is the job’s own signal', async (t) => {
  const lease = new AbortController();
  t.equal(deadlineSignal(job(lease.signal), settings(0)), lease.signal);
});
