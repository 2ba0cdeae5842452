/**
 * Every failure class of every vendor, from its stand-in's own error replies,
 * ends in the right final status with retries only where retrying can help,
 * and the message names the platform and its own error code.
 */
import t from 'tap';
import { findPlatform, supportedModes } from '../../../../services/shared/platforms.js';
import { startPlatformStandins, STANDIN_PLATFORMS } from '../../../standins/index.js';
import { ERRORS } from '../../../standins/errors.js';
import { ask, failure } from '../../../helpers/platform-drivers.js';

const standins = await startPlatformStandins();
t.teardown(() => Promise.all([...standins.values()].map((s) => s.server.close())));

const EXPECTED = {
  auth: { status: 'error', retryable: false },
  billing: { status: 'error', retryable: false },
  rate: { status: 'failed', retryable: true },
  overload: { status: 'failed', retryable: true },
  server: { status: 'failed', retryable: true },
  midstream: { status: 'failed', retryable: true },
  refusal: { status: 'failed', retryable: false },
  empty: { status: 'failed', retryable: false },
} as const;

/** Seconds each vendor's rate-limit reply asks us to wait (Zhipu sends no Retry-After). */
const RETRY_AFTER: Record<string, number | undefined> = { gemini: 2, zhipu: undefined };

for (const platform of STANDIN_PLATFORMS) {
  t.test(platform, async (t) => {
    const s = standins.get(platform)!;
    const modes = supportedModes(findPlatform(platform)!, 'api');
    // Standard and search run over different protocols on OpenAI, xAI and Ark.
    for (const mode of [modes[0]!, modes.at(-2)!]) {
      for (const [kind, want] of Object.entries(EXPECTED)) {
        const err = await failure(ask(s, `问题 #fail:${kind}`, mode));
        t.match(err, want, `${mode} ${kind}: ${err.message}`);
        t.match(err.message, new RegExp(`^(${platform}|platform timed out)`), 'names the platform');
        if (kind === 'rate')
          t.equal(err.retryAfterSeconds, platform in RETRY_AFTER ? RETRY_AFTER[platform] : 1);
      }
    }
    const slow = await failure(ask(s, '问题 #fail:slow', 'standard', 300));
    t.match(slow, { status: 'timeout', retryable: true }, 'the deadline ends in timeout');
  });
}

t.test('vendor quirks are classified by their own codes', async (t) => {
  const msg = async (p: string, kind: string, mode: 'standard' | 'search' = 'standard') =>
    (await failure(ask(standins.get(p)!, `q #fail:${kind}`, mode))).message;
  t.match(
    await msg('gemini', 'auth'),
    /HTTP 400 INVALID_ARGUMENT\/API_KEY_INVALID/,
    'Gemini bad key is a 400',
  );
  t.match(
    await msg('grok', 'auth'),
    /grok rejected the credentials \(HTTP 400/,
    'xAI bad key is a 400',
  );
  t.match(await msg('perplexity', 'auth'), /HTML error page "401 Authorization Required"/);
  t.match(
    await msg('kimi', 'billing'),
    /HTTP 429 exceeded_current_quota_error/,
    'Kimi 429: no balance',
  );
  t.match(
    await msg('kimi', 'rate'),
    /rate limit \(HTTP 429 rate_limit_reached_error/,
    'Kimi 429: rate',
  );
  t.match(
    await msg('kimi', 'overload'),
    /overloaded \(HTTP 429 engine_overloaded_error/,
    'Kimi 429: overload',
  );
  t.match(await msg('zhipu', 'billing'), /HTTP 429 1113/, 'Zhipu no balance is a 429');
  t.match(await msg('claude', 'overload'), /HTTP 529 overloaded_error/);
  t.match(await msg('claude', 'midstream'), /in stream overloaded_error/);
  t.match(await msg('qwen', 'refusal'), /DataInspectionFailed/);
  t.match(await msg('doubao', 'billing', 'search'), /FreeTokensExhausted/);
  t.equal(ERRORS.anthropic!.overload.status, 529);
});

t.test(
  'Gemini 429s: a spent day or plan is final at once, a per-minute limit is retried',
  async (t) => {
    const gemini = standins.get('gemini')!;
    for (const mode of ['standard', 'search'] as const) {
      const day = await failure(ask(gemini, `q #fail:quota_day`, mode));
      t.match(day, { status: 'error', retryable: false }, `${mode} per day: ${day.message}`);
      t.match(
        day.message,
        /^gemini reports a billing, balance or quota problem \(HTTP 429 RESOURCE_EXHAUSTED\/GenerateRequestsPerDayPerProjectPerModel-FreeTier\)/,
      );
      const plan = await failure(ask(gemini, `q #fail:quota_plan`, mode));
      t.match(plan, { status: 'error', retryable: false }, `${mode} plan: ${plan.message}`);
      t.match(plan.message, /HTTP 429 RESOURCE_EXHAUSTED\): You exceeded your current quota/);
      const minute = await failure(ask(gemini, `q #fail:rate`, mode));
      t.match(minute, { status: 'failed', retryable: true, retryAfterSeconds: 2 });
      t.match(
        minute.message,
        /^gemini rate limit \(HTTP 429 RESOURCE_EXHAUSTED\/GenerateRequestsPerMinutePerProjectPerModel-FreeTier\)/,
      );
    }
  },
);
