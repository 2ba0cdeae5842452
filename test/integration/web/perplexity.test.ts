/**
 * The Perplexity web driver in real Chromium against the replica of
 * www.perplexity.ai, for the site's own quirks (the site contract runs the
 * common drifts and the stream variants): each mode set through the model
 * picker and the sources menu's Web switch, the request's `params` asking
 * it (`model_preference`, `sources`), the patched blocks read exactly, the
 * model label shown; every wall its named outcome within seconds: a
 * Cloudflare challenge on the answer call a `captcha`, a 401 after the
 * logged-in page `session_expired`, a logged-out page a login wall, a 429
 * and the Pro-search limit in the stream a cooling account, a blocked
 * answer a refusal.
 */
import t, { type Test } from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import {
  jobOf,
  settingsOf,
  failure,
  type SitePages,
  askOn,
  sentBody,
  everyMode,
  checkWalls,
  sessionWalls,
  checkRefusal,
  checkLoginStates,
  type Wall,
} from '../../helpers/driver-runs.js';
import { perplexityWeb } from '../../../crawler/platforms/perplexity/web/index.js';
import type { Job } from '../../../crawler/platforms/types.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { expectedWebAnswer, MODEL_IDS } from '../../../replicas/perplexity/expected.js';
import { startPerplexityReplica } from '../../../replicas/perplexity/server.js';
import { QUOTA_MESSAGE } from '../../../replicas/perplexity/frames.js';

t.setTimeout(240_000);

const replica = await startPerplexityReplica({ latencyMs: 3 });
t.teardown(() => replica.close());
const browser = await testBrowser(t, replica);
const settings = settingsOf(replica.url);

const site: SitePages = { browser, driver: perplexityWeb, locale: 'en-US' };
const ask = (t: Test, j: Job, state: StorageState | null = replica.storageState()) =>
  askOn(t, site, settings, j, state);

t.test('every mode through the model picker and the Web switch, exactly as asked', async (t) => {
  await everyMode(t, ask, 'Home batteries', expectedWebAnswer, async (run, mode) => {
    const { params } = sentBody<{ params: { model_preference: string; sources: string[] } }>(run);
    const think = mode === 'reasoning' || mode === 'reasoning_search';
    const search = mode === 'search' || mode === 'reasoning_search';
    t.equal(params.model_preference, think ? MODEL_IDS.on : MODEL_IDS.off, `${mode}: the model`);
    t.same(params.sources, search ? ['web'] : [], `${mode}: the sources`);
    t.equal(
      await run.page.getByRole('complementary', { name: 'Sources' }).isVisible(),
      search,
      `${mode}: the sources panel open for the screenshot`,
    );
  });
});

t.test('every wall is its named outcome within seconds', async (t) => {
  const cases: Wall[] = [
    ...sessionWalls(replica.expiredStorageState()),
    [
      '#replica:captcha',
      undefined,
      /^captcha: a Cloudflare challenge on the chat call \(HTTP 403\)/,
      'needs_human',
    ],
    [
      '#replica:rate_limit',
      undefined,
      /^rate or quota limit on perplexity: Too many requests/,
      'cooling',
    ],
    [
      '#replica:quota',
      undefined,
      new RegExp(`^rate or quota limit on perplexity: QUERY_LIMIT ${QUOTA_MESSAGE}`),
      'cooling',
    ],
  ];
  await checkWalls(t, ask, 'Insurance', cases);
  const captcha = await ask(t, jobOf('Insurance #replica:captcha', 'search'));
  await failure(captcha.result);
  t.match(
    await captcha.page.getByRole('dialog', { name: 'Security check' }).isVisible(),
    true,
    'the page shows the challenge: never bypassed',
  );
  await checkRefusal(t, ask, 'Insurance', /perplexity refused to answer/);
});

t.test('a logged-out page needs a person; the imported login is logged in', async (t) => {
  const login = perplexityWeb.loginUrl({ settings });
  await checkLoginStates(t, site, replica.storageState(), login, settings);
});
