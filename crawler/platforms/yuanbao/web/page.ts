/**
 * What the driver finds on yuanbao.tencent.com, by role and name first,
 * then by the hooks public projects name (pathauto1/douzhi-chat
 * `src/providers/yuanbao.ts`; xln3/platform-v2 `yuanbao_adapter.py`,
 * live-calibrated 2026-08): the Quill composer `.ql-editor[contenteditable]`,
 * the send control `#yuanbao-send-btn` / `a[class*="send-btn"]`, the
 * 深度思考 toggle `[dt-button-id="deep_think"]` (on: a
 * `ThinkSelector_selected_*` class) or, since 2026-08-31, a 快速回答 /
 * 深度思考 choice in the 切换模型 menu, the model switch
 * `[dt-button-id="model_switch"]` (Hy3 / DeepSeek), the 联网搜索 toggle
 * `.yb-internet-search-btn` (on: an `…active…` class), the answer
 * `.hyc-common-markdown`, and a logged-out page's lone 登录 button
 * (daijinma/geo_marketing `yuanbao.go` checks exactly that; the kit's
 * recognise.ts reads it as a login wall). The sources opener's words
 * (N 篇资料) and the ARIA names are **[inferred]**.
 */
import type { Page } from 'playwright';
import type { Job, PlatformSettings } from '../../types.js';
import type { Control } from '../../../web/controls.js';
import { openPanel } from '../../../web/panels.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { wantsDeepseek } from './mode.js';
import { SITE } from './stream.js';

export const CONTROLS = {
  /** On: DeepSeek inside Yuanbao; off: Tencent's own Hunyuan (Hy3), the site's default. */
  model: {
    site: SITE,
    label: 'model',
    picker: { on: ['DeepSeek'], off: ['Hy3', '混元', 'Hunyuan'] },
  },
  thinking: {
    site: SITE,
    label: 'deep-thinking',
    toggle: { names: ['深度思考', 'DeepThink'] },
    // The 快速回答 / 深度思考 menu, or a picker of model names (the thinking one so named).
    picker: { on: ['深度思考'], off: ['快速回答'] },
    fallbacks: ['[dt-button-id="deep_think"]', '[class*="ThinkSelector_iconContainer"]'],
  },
  search: {
    site: SITE,
    label: 'web-search',
    toggle: { names: ['联网搜索', '联网', 'Web search'] },
    fallbacks: ['.yb-internet-search-btn', '[class*="internet-search"]'],
  },
} as const satisfies Record<string, Control>;

export const PAGE = {
  walls: { login: ['微信扫码登录', '微信登录', 'QQ登录'], verify: ['验证码'] },
  controls: {
    thinking: CONTROLS.thinking,
    search: CONTROLS.search,
    send: { names: ['发送', 'Send'], fallbacks: ['#yuanbao-send-btn', 'a[class*="send-btn"]'] },
    newChat: { names: ['新建对话', 'New chat'] },
    // The model first: switching it resets 深度思考 on the site (xln3/platform-v2).
    before: (job: Job, settings: PlatformSettings) => [
      [CONTROLS.model, wantsDeepseek(settings, job.mode)],
    ],
    // The model switch's shown choice (Hy3 / DeepSeek, xln3/platform-v2) is the page's model label.
    modelLabel: CONTROLS.model,
  },
  dom: {
    answer: '.agent-chat__bubble--ai .hyc-common-markdown, [class*="hyc-common-markdown"]',
    stop: '[role="button"][aria-label="停止回答"], [role="button"][aria-label*="停止"]',
  },
  openSources: (page: Page) =>
    openPanel(page, {
      opener: { names: ['篇资料'], fallbacks: ['[class*="agent-dialogue-references__opener"]'] },
      panel: ['[role="complementary"][aria-label="参考资料"]', '.agent-dialogue-references'],
    }),
} as const satisfies Pick<SiteSpec, 'walls' | 'controls' | 'dom' | 'openSources'>;
