/**
 * The consumer sites the site kit drives, as the web tests meet them: the
 * driver, its replica started with any composed drift, the exact answer the
 * replica holds for a prompt and mode (replicas/<site>/expected.ts), and what
 * the site contract needs besides: the replica's stream variants, its own
 * widget drifts, the model label its page shows. Adding a site adds one entry.
 */
import type { Browser, BrowserContext } from 'playwright';
import type { WebDriver } from '../../crawler/platforms/types.js';
import type { Answer } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import type { CallFrom, Drifts } from '../../replicas/common/drift.js';
import type { Asked } from '../../replicas/common/site.js';
import type { StreamVariant } from '../../replicas/common/stream-variants.js';
import { hasReasoning } from '../../crawler/platforms/common/answer.js';
import { DEEPSEEK } from '../../crawler/platforms/deepseek/web/driver.js';
import { DOUBAO } from '../../crawler/platforms/doubao/web/driver.js';
import { KIMI } from '../../crawler/platforms/kimi/web/driver.js';
import { YUANBAO } from '../../crawler/platforms/yuanbao/web/driver.js';
import { QWEN } from '../../crawler/platforms/qwen/web/driver.js';
import { ZHIPU } from '../../crawler/platforms/zhipu/web/driver.js';
import { WENXIN } from '../../crawler/platforms/wenxin/web/driver.js';
import { PERPLEXITY } from '../../crawler/platforms/perplexity/web/driver.js';
import { CHATGPT } from '../../crawler/platforms/chatgpt/web/driver.js';
import { GEMINI } from '../../crawler/platforms/gemini/web/driver.js';
import { STREAM_VARIANTS as DEEPSEEK_VARIANTS } from '../../replicas/deepseek/frames.js';
import { STREAM_VARIANTS as DOUBAO_VARIANTS } from '../../replicas/doubao/frames.js';
import { STREAM_VARIANTS as KIMI_VARIANTS } from '../../replicas/kimi/frames.js';
import { STREAM_VARIANTS as YUANBAO_VARIANTS } from '../../replicas/yuanbao/frames.js';
import { STREAM_VARIANTS as QWEN_VARIANTS } from '../../replicas/qwen/frames.js';
import { STREAM_VARIANTS as ZHIPU_VARIANTS } from '../../replicas/zhipu/frames.js';
import { STREAM_VARIANTS as WENXIN_VARIANTS } from '../../replicas/wenxin/frames.js';
import { STREAM_VARIANTS as PERPLEXITY_VARIANTS } from '../../replicas/perplexity/frames.js';
import { STREAM_VARIANTS as CHATGPT_VARIANTS } from '../../replicas/chatgpt/frames.js';
import { STREAM_VARIANTS as GEMINI_VARIANTS } from '../../replicas/gemini/frames.js';
import { deepseekWeb } from '../../crawler/platforms/deepseek/web/index.js';
import { doubaoWeb } from '../../crawler/platforms/doubao/web/index.js';
import { kimiWeb } from '../../crawler/platforms/kimi/web/index.js';
import { yuanbaoWeb } from '../../crawler/platforms/yuanbao/web/index.js';
import { qwenWeb } from '../../crawler/platforms/qwen/web/index.js';
import { zhipuWeb } from '../../crawler/platforms/zhipu/web/index.js';
import { wenxinWeb } from '../../crawler/platforms/wenxin/web/index.js';
import { perplexityWeb } from '../../crawler/platforms/perplexity/web/index.js';
import { chatgptWeb } from '../../crawler/platforms/chatgpt/web/index.js';
import { geminiWeb } from '../../crawler/platforms/gemini/web/index.js';
import { startDeepseekReplica } from '../../replicas/deepseek/server.js';
import { CALL_FROM as DOUBAO_CALL_FROM, startDoubaoReplica } from '../../replicas/doubao/server.js';
import { startKimiReplica } from '../../replicas/kimi/server.js';
import { startYuanbaoReplica } from '../../replicas/yuanbao/server.js';
import { startQwenReplica } from '../../replicas/qwen/server.js';
import { startZhipuReplica } from '../../replicas/zhipu/server.js';
import { startWenxinReplica } from '../../replicas/wenxin/server.js';
import { startPerplexityReplica } from '../../replicas/perplexity/server.js';
import { startChatgptReplica } from '../../replicas/chatgpt/server.js';
import { startGeminiReplica } from '../../replicas/gemini/server.js';
import { expectedWebAnswer } from '../../replicas/deepseek/expected.js';
import { expectedAnswer } from '../../replicas/doubao/expected.js';
import { expectedFields } from '../../replicas/kimi/expected.js';
import { expectedWebAnswer as expectedYuanbao } from '../../replicas/yuanbao/expected.js';
import {
  expectedWebAnswer as expectedQwen,
  MODEL_LABEL as QWEN_MODEL,
} from '../../replicas/qwen/expected.js';
import {
  expectedWebAnswer as expectedZhipu,
  MODEL_LABEL as ZHIPU_MODEL,
  ranMode as zhipuRan,
} from '../../replicas/zhipu/expected.js';
import {
  expectedWebAnswer as expectedWenxin,
  modelFor as wenxinModel,
} from '../../replicas/wenxin/expected.js';
import { MODEL_LABELS as WENXIN_MODELS } from '../../replicas/wenxin/answers.js';
import {
  expectedWebAnswer as expectedPerplexity,
  modelLabelOf as perplexityModel,
} from '../../replicas/perplexity/expected.js';
import {
  expectedWebAnswer as expectedChatgpt,
  MODEL_LABEL as CHATGPT_MODEL,
  ranMode as chatgptRan,
} from '../../replicas/chatgpt/expected.js';
import {
  expectedWebAnswer as expectedGemini,
  ranMode as geminiRan,
} from '../../replicas/gemini/expected.js';
import { modelLabel as geminiModel } from '../../replicas/gemini/models.js';

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
  /** The names of its deep-thinking control, to take it off the page. */
  thinkingNames: readonly string[];
  /** The replica's stream variants (`#replica:<name>`). */
  variants: readonly StreamVariant[];
  /** The site's own page drifts (its controls drawn as other widgets), by name. */
  widgets?: Readonly<Record<string, () => Promise<RunningReplica>>>;
  /** The mode a variant really runs (a silent fallback drops one), when not the one asked. */
  ran?(prompt: string, mode: Mode, url: string): Mode;
  /** The model label the page shows after the answer, by the page's drift; null: none. */
  model(drift: string, mode: Mode): string | null;
  /** Its DOM reader gives the whole answer (the spec's `dom.whole`): witnesses' disagreements end there. */
  whole: boolean;
}

export const WEB_SITES: readonly WebSite[] = [
  {
    name: 'deepseek',
    driver: deepseekWeb,
    start: (drift) => startDeepseekReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode, url) => fieldsOf(expectedWebAnswer(prompt, mode, url)),
    callFrom: 'page',
    whole: DEEPSEEK.dom.whole === true,
    thinkingNames: DEEPSEEK.controls.thinking!.toggle!.names,
    variants: DEEPSEEK_VARIANTS,
    ran: (prompt, mode, url) => expectedWebAnswer(prompt, mode, url).effectiveMode,
    model: () => null,
  },
  {
    name: 'doubao',
    driver: doubaoWeb,
    start: (drift) => startDoubaoReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedAnswer(prompt, mode)),
    callFrom: DOUBAO_CALL_FROM,
    whole: DOUBAO.dom.whole === true,
    thinkingNames: DOUBAO.controls.thinking!.toggle!.names,
    variants: DOUBAO_VARIANTS,
    // Its switches name no model (the 快速 / 专家 picker: doubao-controls.test.ts).
    model: (drift, mode) =>
      drift === 'model_name_picker'
        ? hasReasoning(mode)
          ? 'Doubao-Seed-1.6-thinking'
          : 'Doubao-Seed-1.6'
        : null,
  },
  {
    name: 'kimi',
    driver: kimiWeb,
    start: (drift) => startKimiReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode, url) =>
      expectedFields(prompt.replace(/ ?#replica:[a-z0-9_]+/g, ''), mode, url),
    callFrom: 'page',
    whole: KIMI.dom.whole === true,
    thinkingNames: KIMI.controls.thinking!.toggle!.names,
    widgets: {
      model_picker: () => startKimiReplica({ latencyMs: 2, widgets: 'model_picker' }),
      tools_popover: () => startKimiReplica({ latencyMs: 2, widgets: 'tools_popover' }),
    },
    // Every Kimi variant carries the plain stream's answer.
    variants: KIMI_VARIANTS,
    model: (drift, mode) =>
      drift === 'model_picker'
        ? hasReasoning(mode)
          ? 'K2.5 思考'
          : 'K2.5 快速'
        : drift === 'model_name_picker'
          ? hasReasoning(mode)
            ? '长思考 (k1.5)'
            : 'Kimi'
          : null,
  },
  {
    name: 'yuanbao',
    driver: yuanbaoWeb,
    start: (drift) => startYuanbaoReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedYuanbao(prompt, mode)),
    callFrom: 'page',
    whole: YUANBAO.dom.whole === true,
    thinkingNames: YUANBAO.controls.thinking!.toggle!.names,
    variants: YUANBAO_VARIANTS,
    // Its model switch shows Hunyuan, the site's default, on every page.
    model: () => 'Hy3',
  },
  {
    name: 'qwen',
    driver: qwenWeb,
    start: (drift) => startQwenReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedQwen(prompt, mode)),
    callFrom: 'page',
    whole: QWEN.dom.whole === true,
    thinkingNames: QWEN.controls.thinking!.toggle!.names,
    variants: QWEN_VARIANTS,
    // Its model picker shows the site's default model on every page.
    model: () => QWEN_MODEL,
  },
  {
    name: 'zhipu',
    driver: zhipuWeb,
    start: (drift) => startZhipuReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedZhipu(prompt, mode)),
    callFrom: 'page',
    whole: ZHIPU.dom.whole === true,
    thinkingNames: ZHIPU.controls.thinking!.toggle!.names,
    variants: ZHIPU_VARIANTS,
    // The 2024 format carries no chain of thought.
    ran: zhipuRan,
    // Its model label near the composer, on every page.
    model: () => ZHIPU_MODEL,
  },
  {
    name: 'wenxin',
    driver: wenxinWeb,
    start: (drift) => startWenxinReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedWenxin(prompt, mode)),
    callFrom: 'page',
    whole: WENXIN.dom.whole === true,
    thinkingNames: WENXIN.controls.thinking!.toggle!.names,
    variants: WENXIN_VARIANTS,
    // Its model picker names the ERNIE version (文心X1 Turbo while thinking); the mode drifts
    // that redraw its controls hide the picker with them, a model-name picker shows the same names.
    model: (drift, mode) =>
      ['nameless_controls', 'checkbox_controls', 'menu_controls'].includes(drift)
        ? null
        : WENXIN_MODELS[wenxinModel(mode)],
  },
  {
    name: 'perplexity',
    driver: perplexityWeb,
    start: (drift) => startPerplexityReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedPerplexity(prompt, mode)),
    callFrom: 'page',
    whole: PERPLEXITY.dom.whole === true,
    // Deep thinking is the model picker's thinking models: taken off, the picker offers none.
    thinkingNames: PERPLEXITY.controls.thinking!.toggle!.names,
    variants: PERPLEXITY_VARIANTS,
    // The model picker's label; the redrawn controls hide it, a model-name picker shows its own.
    model: (drift, mode) =>
      drift === 'model_name_picker'
        ? hasReasoning(mode)
          ? 'Sonar Reasoning Pro'
          : 'Sonar'
        : ['nameless_controls', 'checkbox_controls', 'menu_controls'].includes(drift)
          ? null
          : perplexityModel(mode),
  },
  {
    name: 'chatgpt',
    driver: chatgptWeb,
    start: (drift) => startChatgptReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedChatgpt(prompt, mode)),
    callFrom: 'page',
    whole: CHATGPT.dom.whole === true,
    thinkingNames: CHATGPT.controls.thinking!.toggle!.names,
    variants: CHATGPT_VARIANTS,
    // The 2025-2026 page: both modes in the composer's "+" tools menu, shown as pills once chosen.
    widgets: { tools_menu: () => startChatgptReplica({ latencyMs: 2, widgets: 'tools_menu' }) },
    // The older snapshots carry no thoughts.
    ran: chatgptRan,
    // Its model picker in the header, on every page.
    model: () => CHATGPT_MODEL,
  },
  {
    name: 'gemini',
    driver: geminiWeb,
    start: (drift) => startGeminiReplica({ latencyMs: 2, drift }),
    expected: (prompt, mode) => fieldsOf(expectedGemini(prompt, mode)),
    callFrom: 'page',
    whole: GEMINI.dom.whole === true,
    thinkingNames: GEMINI.controls.thinking!.toggle!.names,
    variants: GEMINI_VARIANTS,
    // The Bard-era layout carries no thoughts.
    ran: geminiRan,
    // Thinking is the picker's model (Fast / Thinking); a build that draws thinking as a
    // toggle shows no picker; one that names models shows the model.
    model: (drift, mode) =>
      drift === 'model_name_picker'
        ? hasReasoning(mode)
          ? '2.5 Pro (Thinking)'
          : '2.5 Flash'
        : ['nameless_controls', 'checkbox_controls', 'menu_controls'].includes(drift)
          ? null
          : geminiModel(hasReasoning(mode)),
  },
];

/**
 * The sites a web test file runs: every one, or those `DRIFT_SITES=a,b` names (a new site's own
 * runs of the site contract, the generated drift and the mode sequences).
 */
export const SITES_UNDER_TEST: readonly WebSite[] = ((only) =>
  only ? WEB_SITES.filter((s) => only.includes(s.name)) : WEB_SITES)(
  process.env.DRIFT_SITES?.split(',').filter(Boolean),
);

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
