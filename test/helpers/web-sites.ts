/**
 * The four consumer sites the site kit drives, as the web tests meet them:
 * the driver, its replica started with any composed drift, and the exact
 * answer the replica holds for a prompt and mode (replicas/<site>/expected.ts).
 */
import type { Browser, BrowserContext } from 'playwright';
import type { WebDriver } from '../../crawler/platforms/types.js';
import type { Answer } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import type { CallFrom, Drifts } from '../../replicas/common/drift.js';
import type { Asked } from '../../replicas/common/site.js';
import { deepseekWeb } from '../../crawler/platforms/deepseek/web/index.js';
import { doubaoWeb } from '../../crawler/platforms/doubao/web/index.js';
import { kimiWeb } from '../../crawler/platforms/kimi/web/index.js';
import { yuanbaoWeb } from '../../crawler/platforms/yuanbao/web/index.js';
import { wenxinWeb } from '../../crawler/platforms/wenxin/web/index.js';
import { startDeepseekReplica } from '../../replicas/deepseek/server.js';
import { CALL_FROM as DOUBAO_CALL_FROM, startDoubaoReplica } from '../../replicas/doubao/server.js';
import { startKimiReplica } from '../../replicas/kimi/server.js';
import { startYuanbaoReplica } from '../../replicas/yuanbao/server.js';
import { startWenxinReplica } from '../../replicas/wenxin/server.js';
import { expectedWebAnswer } from '../../replicas/deepseek/expected.js';
import { expectedAnswer } from '../../replicas/doubao/expected.js';
import { expectedFields } from '../../replicas/kimi/expected.js';
import { expectedWebAnswer as expectedYuanbao } from '../../replicas/yuanbao/expected.js';
import { expectedWebAnswer as expectedWenxin } from '../../replicas/wenxin/expected.js';

/** The fields every site's expected answer names. */
export const fieldsOf = (a: Answer) => ({
  answerContent: a.answerContent,
  referenceList: a.referenceList,
  citationList: a.citationList,
  reasoning: a.reasoningProcess?.content ?? null,
  recommendedQuestions: a.recommendedQuestions,
});

export interface RunningReplica {
  url: string;
  /** The mode each chat call the replica received asked for, in order. */
  asked: Asked[];
  storageState(): StorageState;
  close(): Promise<void>;
}

export interface WebSite {
  name: string;
  driver: WebDriver;
  start(drift: Drifts): Promise<RunningReplica>;
  expected(prompt: string, mode: Mode, url: string): ReturnType<typeof fieldsOf>;
  /** Where its replica's page makes the chat call, as the replica declares it. */
  callFrom: CallFrom;
}

export const WEB_SITES: readonly WebSite[] = [
  {
    name: 'deepseek',
    driver: deepseekWeb,
    start: (drift) => startDeepseekReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode, url) => fieldsOf(expectedWebAnswer(prompt, mode, url)),
    callFrom: 'page',
  },
  {
    name: 'doubao',
    driver: doubaoWeb,
    start: (drift) => startDoubaoReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedAnswer(prompt, mode)),
    callFrom: DOUBAO_CALL_FROM,
  },
  {
    name: 'kimi',
    driver: kimiWeb,
    start: (drift) => startKimiReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode, url) =>
      expectedFields(prompt.replace(/ ?#replica:[a-z0-9_]+/g, ''), mode, url),
    callFrom: 'page',
  },
  {
    name: 'yuanbao',
    driver: yuanbaoWeb,
    start: (drift) => startYuanbaoReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedYuanbao(prompt, mode)),
    callFrom: 'page',
  },
  {
    name: 'wenxin',
    driver: wenxinWeb,
    start: (drift) => startWenxinReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedWenxin(prompt, mode)),
    callFrom: 'page',
  },
];

/**
 * The sites a web test runs: all of them, or those `DRIFT_SITES` names (`DRIFT_SITES=kimi,doubao`),
 * to run one site's share of the site contract, the generated drift or the mode sequences alone.
 */
export function onlySites<S extends { name: string }>(all: readonly S[]): readonly S[] {
  const names = (process.env.DRIFT_SITES ?? '').split(',').filter(Boolean);
  return names.length === 0 ? all : all.filter((s) => names.includes(s.name));
}

/**
 * A browser context as an account's page sees a replica: logged in with the given storage
 * state, in Chinese, a desktop viewport; nothing leaves this machine (the answers' icons live
 * on the real CDNs).
 */
export async function replicaContext(
  browser: Browser,
  state: StorageState,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    storageState: state as never,
    locale: 'zh-CN',
    viewport: { width: 1280, height: 900 },
  });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (r) => r.abort());
  return context;
}
