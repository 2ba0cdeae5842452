/**
 * The sandbox API driver (a flavour of the shared OpenAI-style chat driver)
 * against a real sandbox server on 127.0.0.1:0.
 */
import t from 'tap';
import { MODES, type Mode } from '../../../../services/shared/platforms.js';
import { sandboxDriver } from '../../../../crawler/platforms/sandbox/index.js';
import { SANDBOX_MODELS } from '../../../../crawler/platforms/sandbox/api.js';
import { sandboxAnswer as answerOf } from '../../../../sandbox/answers.js';
import { startSandboxServer } from '../../../../sandbox/server.js';
import type { PlatformSettings } from '../../../../crawler/platforms/types.js';
import { failure } from '../../../helpers/platform-drivers.js';

const server = await startSandboxServer({ latencyMs: 20 });
t.teardown(() => server.close());

const settings: PlatformSettings = {
  apiBaseUrl: server.url,
  webUrl: `${server.url}/`,
  timeoutMs: 10_000,
};
const api = sandboxDriver.api!;
const ctx = { settings, fetch };

/** The answer answers.ts derives, reported by the model the driver asked for. */
const sandboxAnswer = (prompt: string, mode: Mode, model = SANDBOX_MODELS[mode]) => ({
  ...answerOf(prompt, mode),
  modelReported: model,
});

function ask(prompt: string, mode: Mode = 'standard', signal = new AbortController().signal) {
  return api.ask({ prompt, mode, signal }, ctx);
}

t.test('all four modes stream exactly the answer answers.ts derives', async (t) => {
  for (const prompt of ['best CRM for startups', '最适合学生的笔记本电脑']) {
    for (const mode of MODES) {
      t.same(await ask(prompt, mode), sandboxAnswer(prompt, mode), `${mode} / ${prompt}`);
    }
  }
  const rec = server.stats.byPath('/v1/chat/completions').at(-1)!;
  t.equal(rec.remoteAddress, '127.0.0.1');
  t.equal(rec.prompt, '最适合学生的笔记本电脑');
  t.equal(rec.mode, 'reasoning_search');
  t.equal(rec.status, 200);
  t.ok(rec.at > Date.now() - 60_000 && rec.at <= Date.now());
});

t.test('operator model names are sent; mode flags still decide', async (t) => {
  const answer = await api.ask(
    { prompt: 'model choice', mode: 'search', signal: new AbortController().signal },
    { settings: { ...settings, models: { search: 'my-custom-model' }, apiKey: 'secret' }, fetch },
  );
  t.same(
    answer,
    sandboxAnswer('model choice', 'search', 'my-custom-model'),
    'the model it reported',
  );
});

t.test('failure directives map to the right PlatformError', async (t) => {
  // The shared chat driver's classification, as for the nine OpenAI-style vendors.
  const cases: [string, string, boolean, number | undefined, RegExp][] = [
    ['#fail:429', 'failed', true, 1, /^sandbox rate limit \(HTTP 429 rate_limit_exceeded\)/],
    ['#fail:500', 'failed', true, undefined, /^sandbox server error \(HTTP 500 server_error\)/],
    ['#fail:503', 'failed', true, undefined, /^sandbox is overloaded \(HTTP 503/],
    ['#fail:401', 'error', false, undefined, /^sandbox rejected the credentials \(HTTP 401/],
    ['#fail:login', 'error', false, undefined, /^sandbox rejected the credentials \(HTTP 401/],
    ['#fail:empty', 'failed', false, undefined, /^sandbox returned no answer/],
    ['#fail:refuse', 'failed', false, undefined, /^sandbox refused to answer: .*content_filter/],
  ];
  for (const [directive, status, retryable, retryAfter, message] of cases) {
    const e = await failure(ask(`directive test ${directive}`, 'search'));
    t.equal(e.status, status, `${directive} status`);
    t.equal(e.retryable, retryable, `${directive} retryable`);
    t.equal(e.retryAfterSeconds, retryAfter, `${directive} retry after`);
    t.match(e.message, message, `${directive} message`);
  }
});

t.test('#fail:timeout stalls until the job signal aborts', async (t) => {
  const started = Date.now();
  const e = await failure(ask('stall please #fail:timeout', 'standard', AbortSignal.timeout(300)));
  t.equal(e.status, 'timeout');
  t.equal(e.retryable, true);
  t.ok(Date.now() - started >= 280, 'waited for the abort');
  const rec = server.stats.requests.find((r) => r.prompt === 'stall please #fail:timeout')!;
  t.equal(rec.status, undefined, 'the server never answered');

  const e2 = await failure(
    api.ask(
      { prompt: 'stall again #fail:timeout', mode: 'search', signal: new AbortController().signal },
      { settings: { ...settings, timeoutMs: 250 }, fetch },
    ),
  );
  t.equal(e2.status, 'timeout', 'settings.timeoutMs is a deadline too');

  const aborted = new AbortController();
  aborted.abort();
  t.equal((await failure(ask('already aborted', 'standard', aborted.signal))).status, 'timeout');
});

t.test('an abort in the middle of the stream is a timeout', async (t) => {
  const e = await failure(ask('slow answer #latency:2000', 'reasoning', AbortSignal.timeout(300)));
  t.equal(e.status, 'timeout');
  t.equal(e.retryable, true);
});

t.test('#fail:500x2 fails twice per prompt+mode, then answers', async (t) => {
  const prompt = 'counted failure #fail:500x2';
  t.equal((await failure(ask(prompt, 'search'))).status, 'failed');
  t.equal((await failure(ask(prompt, 'search'))).status, 'failed');
  t.same(await ask(prompt, 'search'), sandboxAnswer('counted failure', 'search'));
  t.same(await ask(prompt, 'search'), sandboxAnswer(prompt, 'search'), 'and keeps answering');
  // Another mode has its own count.
  t.equal((await failure(ask(prompt, 'standard'))).retryable, true);
  const e429 = await failure(ask('limited #fail:429x1', 'reasoning'));
  t.equal(e429.retryAfterSeconds, 1);
  t.ok(await ask('limited #fail:429x1', 'reasoning'));
});

t.test('latency: total answer time, per request via #latency', async (t) => {
  const started = Date.now();
  await ask('take your time #latency:400', 'standard');
  t.ok(Date.now() - started >= 380, `took ${Date.now() - started} ms`);
});

t.test('network failures are retryable', async (t) => {
  const s = await startSandboxServer();
  await s.close();
  const e = await failure(
    api.ask(
      { prompt: 'anyone there', mode: 'standard', signal: new AbortController().signal },
      { settings: { ...settings, apiBaseUrl: s.url }, fetch },
    ),
  );
  t.equal(e.status, 'failed');
  t.equal(e.retryable, true);
  t.match(e.message, /network error/);
});

t.test('reset() clears stats and attempt counters', async (t) => {
  const s = await startSandboxServer();
  const c = { settings: { ...settings, apiBaseUrl: s.url }, fetch };
  const job = {
    prompt: 'reset me #fail:503x1',
    mode: 'standard' as const,
    signal: new AbortController().signal,
  };
  t.equal((await failure(api.ask(job, c))).status, 'failed');
  s.reset();
  t.same(s.stats.requests, []);
  t.equal((await failure(api.ask(job, c))).status, 'failed', 'counts again from zero');
  t.ok(await api.ask(job, c));
  await s.close();
});
