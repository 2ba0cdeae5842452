/**
 * The site contract, the same for every consumer site the kit drives: against
 * each replica drawn as the site might be next month (replicas/common/drift.ts:
 * renamed classes, no test ids, a switch drawn as a pressed button and back,
 * a slow first byte), the driver returns the exact answer the replica holds
 * (replicas/<site>/expected.ts) with the mode that ran, or fails within
 * seconds with a named drift signal, never a hang and never a verdict on the
 * account. A mode needs only its own controls: with the page's mode controls
 * gone, standard mode still answers and deep thinking fails in under 5 s
 * with `control_missing: <site> deep-thinking`. One browser for the file;
 * the sites and their drifts run side by side, three pages at a time.
 */
import t from 'tap';
import type { Browser, Page } from 'playwright';
import { testBrowser } from '../../helpers/chromium.js';
import { webContext } from '../../helpers/web-context.js';
import { toFailure } from '../../../crawler/executor.js';
import {
  PlatformError,
  type PlatformSettings,
  type WebAnswer,
  type WebDriver,
} from '../../../crawler/platforms/types.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import { MODES, type Mode } from '../../../services/shared/platforms.js';
import { DRIFTS, type Drift } from '../../../replicas/common/drift.js';
import { deepseekWeb } from '../../../crawler/platforms/deepseek/web/index.js';
import { doubaoWeb } from '../../../crawler/platforms/doubao/web/index.js';
import { kimiWeb } from '../../../crawler/platforms/kimi/web/index.js';
import { yuanbaoWeb } from '../../../crawler/platforms/yuanbao/web/index.js';
import { DEEPSEEK } from '../../../crawler/platforms/deepseek/web/driver.js';
import { DOUBAO } from '../../../crawler/platforms/doubao/web/driver.js';
import { KIMI } from '../../../crawler/platforms/kimi/web/driver.js';
import { YUANBAO } from '../../../crawler/platforms/yuanbao/web/driver.js';
import { startDeepseekReplica } from '../../../replicas/deepseek/server.js';
import { startDoubaoReplica } from '../../../replicas/doubao/server.js';
import { startKimiReplica } from '../../../replicas/kimi/server.js';
import { startYuanbaoReplica } from '../../../replicas/yuanbao/server.js';
import { expectedWebAnswer } from '../../../replicas/deepseek/expected.js';
import { expectedAnswer } from '../../../replicas/doubao/expected.js';
import { expectedFields } from '../../../replicas/kimi/expected.js';
import { expectedWebAnswer as expectedYuanbao } from '../../../replicas/yuanbao/expected.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';

t.setTimeout(240_000);

/** The fields every site's expected answer names. */
const fieldsOf = (a: Answer) => ({
  answerContent: a.answerContent,
  referenceList: a.referenceList,
  citationList: a.citationList,
  reasoning: a.reasoningProcess?.content ?? null,
  recommendedQuestions: a.recommendedQuestions,
});

interface SiteUnderTest {
  name: string;
  driver: WebDriver;
  /** The names of its deep-thinking control, to take it off the page. */
  thinkingNames: readonly string[];
  start(
    drift: Drift,
  ): Promise<{ url: string; storageState(): StorageState; close(): Promise<void> }>;
  expected(prompt: string, mode: Mode, url: string): ReturnType<typeof fieldsOf>;
}

const SITES: SiteUnderTest[] = [
  {
    name: 'deepseek',
    driver: deepseekWeb,
    thinkingNames: DEEPSEEK.controls.thinking!.toggle!.names,
    start: (drift) => startDeepseekReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode, url) => fieldsOf(expectedWebAnswer(prompt, mode, url)),
  },
  {
    name: 'doubao',
    driver: doubaoWeb,
    thinkingNames: DOUBAO.controls.thinking!.toggle!.names,
    start: (drift) => startDoubaoReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedAnswer(prompt, mode)),
  },
  {
    name: 'kimi',
    driver: kimiWeb,
    thinkingNames: KIMI.controls.thinking!.toggle!.names,
    start: (drift) => startKimiReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode, url) => expectedFields(prompt, mode, url),
  },
  {
    name: 'yuanbao',
    driver: yuanbaoWeb,
    thinkingNames: YUANBAO.controls.thinking!.toggle!.names,
    start: (drift) => startYuanbaoReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedYuanbao(prompt, mode)),
  },
];

/** Every mode on the unchanged page; on a drifted one, the mode that sets both controls. */
const modesOf = (drift: Drift): readonly Mode[] =>
  drift === 'none' ? MODES : ['reasoning_search'];

const browser: Browser = await testBrowser(t);

interface Outcome {
  answer?: WebAnswer;
  error?: PlatformError;
  ms: number;
  notes: string[];
}

async function ask(
  site: SiteUnderTest,
  replica: { url: string; storageState(): StorageState },
  prompt: string,
  mode: Mode,
  before?: (page: Page) => Promise<void>,
): Promise<Outcome> {
  const settings: PlatformSettings = { apiBaseUrl: '', webUrl: replica.url, timeoutMs: 30_000 };
  const context = await browser.newContext({
    storageState: replica.storageState() as never,
    locale: 'zh-CN',
    viewport: { width: 1280, height: 900 },
  });
  // The answers' icons live on the real CDNs: nothing leaves this machine.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (r) => r.abort());
  try {
    const page = await context.newPage();
    const ctx = await webContext(page, settings);
    const job = { prompt, mode, signal: AbortSignal.timeout(30_000) };
    await page.goto(site.driver.startUrl(job, { settings }));
    if (before) await before(page);
    const started = Date.now();
    const notes = () =>
      ctx.evidence.list().flatMap((e) => (e.kind === 'note' ? [e.text.slice(0, 200)] : []));
    try {
      const answer = await site.driver.ask(page, job, ctx);
      return { answer, ms: Date.now() - started, notes: notes() };
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      return { error: err, ms: Date.now() - started, notes: notes() };
    }
  } finally {
    await context.close();
  }
}

/**
 * Pages driven at once. Each is a browser context with a page of its own; on
 * CI's two cores, with the suite's other files running beside this one, more
 * at once only makes every page slower than the deadlines being tested.
 */
const AT_ONCE = 3;
const slots: (() => void)[] = [];
let busy = 0;
async function inSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (busy >= AT_ONCE) await new Promise<void>((resolve) => slots.push(resolve));
  busy += 1;
  try {
    return await fn();
  } finally {
    busy -= 1;
    slots.shift()?.();
  }
}

/** One site against every drift, then without its deep-thinking control. */
async function contract(site: SiteUnderTest) {
  await Promise.all(
    DRIFTS.map(async (drift) => {
      const replica = await site.start(drift);
      t.teardown(() => replica.close());
      for (const mode of modesOf(drift)) {
        const prompt = `新能源汽车的电池技术 ${mode}`;
        const r = await inSlot(() => ask(site, replica, prompt, mode));
        const label = `${site.name}, ${drift}, ${mode}`;
        t.equal(r.error?.message, undefined, `${label}: no failure`);
        if (!r.answer) {
          t.comment(r.notes.join('\n'));
          continue;
        }
        t.same(fieldsOf(r.answer), site.expected(prompt, mode, replica.url), `${label}: exact`);
        t.equal(r.answer.effectiveMode, mode, `${label}: the mode that ran`);
      }
    }),
  );

  const replica = await site.start('none');
  t.teardown(() => replica.close());
  const withoutThinking = async (page: Page) => {
    await page.getByRole('textbox').first().waitFor();
    await page.evaluate(`(() => {
        const names = ${JSON.stringify(site.thinkingNames)};
        for (const el of document.querySelectorAll('button, [role="button"], [role="switch"]'))
          if (names.some((n) => (el.textContent || '').includes(n))) el.remove();
      })()`);
  };
  const plain = await inSlot(() =>
    ask(site, replica, '番茄炒蛋怎么做', 'standard', withoutThinking),
  );
  t.equal(
    plain.error?.message,
    undefined,
    `${site.name}: no deep-thinking control: standard mode answers`,
  );
  if (plain.answer)
    t.same(fieldsOf(plain.answer), site.expected('番茄炒蛋怎么做', 'standard', replica.url));
  const deep = await inSlot(() =>
    ask(site, replica, '番茄炒蛋怎么做', 'reasoning', withoutThinking),
  );
  t.same(
    toFailure(deep.error),
    {
      status: 'failed',
      retryable: false,
      message: `control_missing: ${site.name} deep-thinking`,
    },
    `${site.name}: no deep-thinking control: reasoning is named drift, not retried elsewhere`,
  );
  t.equal(deep.error?.account, undefined, `${site.name}: the account stays healthy`);
  t.ok(deep.ms < 5_000, `${site.name}: failed in ${deep.ms} ms`);
}

t.test('every site, every drift: the exact answer or a named drift signal', async () => {
  await Promise.all(SITES.map(contract));
});
