/**
 * What the driver finds on yiyan.baidu.com (which lands on wenxin.baidu.com),
 * by role and name first, then by the hooks a live-calibrated public adapter
 * names (xln3/platform-v2 `yiyan_adapter.py`, 2026-07-27 / 08-10 / 08-31;
 * daijinma/geo_marketing `yiyan.go`): the composer `textarea.ci-textarea`
 * (an older build: a contenteditable `role=textbox`), the send control
 * `span.ci-submit-button` (older `.send__fP6LsYgF`), the 深度思考 chip
 * `div.ci-model-button` (on: a `ci-model-button-active` class), the answer
 * `div.conversation-flow-answer-container` with its
 * `chat-search-answer-generate` block, the 「生成中」 indicator
 * `[class*="markdown-loading"]`, the 开启新对话 entry of the sidebar, and
 * Baidu's passport login layer (`#TANGRAM__PSP_11__…`, 短信登录 / 扫码登录)
 * and its slider or rotating-image verification (`pass-slide`, `vcode`).
 * The model picker of ERNIE versions (文心4.5 Turbo, 文心5.0; 文心X1 Turbo,
 * the thinking model, shown while 深度思考 is on or chosen in the picker of
 * a build without the chip), the 联网搜索 toggle, the sources opener's words
 * and the ARIA names are **[inferred]**.
 */
import type { Page } from 'playwright';
import type { Control } from '../../../web/controls.js';
import { openPanel } from '../../../web/panels.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { SITE } from './stream.js';

export const CONTROLS = {
  /**
   * Deep thinking: the 深度思考 chip, or the thinking model (文心X1) chosen in
   * the model picker; the picker's shown choice is the page's model label.
   */
  thinking: {
    site: SITE,
    label: 'deep-thinking',
    toggle: { names: ['深度思考', 'Deep Think'] },
    picker: { on: ['X1', '深度思考'], off: ['文心4.5', '文心5.0', '4.5 Turbo', 'ERNIE'] },
    fallbacks: ['div.ci-model-button:has(div.internet-search-icon)'],
  },
  search: {
    site: SITE,
    label: 'web-search',
    toggle: { names: ['联网搜索', '联网', 'Web search'] },
  },
} as const satisfies Record<string, Control>;

export const PAGE = {
  walls: {
    login: ['短信登录', '百度账号登录', '账号密码登录', '登录百度账号'],
    verify: ['拖动滑块', '旋转图片', '请完成验证', '百度安全验证'],
    loginPaths: ['/passport/login', '/v2/login'],
  },
  controls: {
    thinking: CONTROLS.thinking,
    search: CONTROLS.search,
    send: {
      names: ['发送', 'Send'],
      fallbacks: ['span.ci-submit-button', '.send__fP6LsYgF', 'div[class*="btnContainer"]'],
    },
    newChat: { names: ['开启新对话', '新对话', 'New chat'] },
    modelLabel: CONTROLS.thinking,
  },
  dom: {
    answer:
      'div.conversation-flow-answer-container .chat-search-answer-generate .answer-markdown, [class*="answer-markdown"]',
    stop: '[class*="markdown-loading"], [role="button"][aria-label="停止生成"]',
  },
  openSources: (page: Page) =>
    openPanel(page, {
      opener: { names: ['篇参考资料', '条参考来源'], fallbacks: ['[class*="source-opener"]'] },
      panel: ['[role="complementary"][aria-label="参考资料"]', '.cosd-note-list'],
    }),
} as const satisfies Pick<SiteSpec, 'walls' | 'controls' | 'dom' | 'openSources'>;
