/**
 * What the driver finds on chatglm.cn, by role and name first: the
 * composer, the send control (发送), the 深度思考 and 联网搜索 toggles, the
 * new-chat control (新建对话), the model label near the composer (the model
 * that answers, `GLM-4.6`), the answer's markdown and the stop control, the
 * sources opener (N 个网页) and its panel. Public projects drive ChatGLM
 * through its API rather than its page (../shared/platforms.md §15 lists
 * chatglm.cn as low-coverage), so every name and hook here is
 * **[inferred]** and found by role and name before any class.
 */
import type { Page } from 'playwright';
import type { Control } from '../../../web/controls.js';
import { openPanel } from '../../../web/panels.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { SITE } from './stream.js';

export const CONTROLS = {
  thinking: {
    site: SITE,
    label: 'deep-thinking',
    toggle: { names: ['深度思考', 'Deep Think'] },
    picker: { on: ['深度思考', '推理'], off: ['快速'] },
    fallbacks: ['[class*="deep-think"]'],
  },
  search: {
    site: SITE,
    label: 'web-search',
    toggle: { names: ['联网搜索', '联网', 'Web search'] },
    fallbacks: ['[class*="networking"]'],
  },
  /** The model the page names near the composer; never set, only read. */
  model: {
    site: SITE,
    label: 'model',
    picker: { on: ['GLM-4.5-Air'], off: ['GLM-4.6', 'GLM-4.5'] },
  },
} as const satisfies Record<string, Control>;

export const PAGE = {
  walls: {
    login: ['手机号登录', '微信扫码登录', '登录智谱清言'],
    verify: ['安全验证', '拖动滑块'],
  },
  controls: {
    thinking: CONTROLS.thinking,
    search: CONTROLS.search,
    send: { names: ['发送', 'Send'], fallbacks: ['.enter-icon-container', '[class*="send-btn"]'] },
    newChat: { names: ['新建对话', 'New chat'] },
    modelLabel: CONTROLS.model,
  },
  dom: {
    // The class on the answer's turn (`answer`) outlives a rebuild that renames its parts.
    answer: '.answer .markdown-body, .answer > div:last-child',
    stop: '[role="button"][aria-label="停止生成"], [role="button"][aria-label*="停止"]',
  },
  openSources: (page: Page) =>
    openPanel(page, {
      opener: { names: ['个网页'], fallbacks: ['[class*="search-source-opener"]'] },
      panel: ['[role="complementary"][aria-label="参考来源"]', '[class*="search-source-panel"]'],
    }),
} as const satisfies Pick<SiteSpec, 'walls' | 'controls' | 'dom' | 'openSources'>;
