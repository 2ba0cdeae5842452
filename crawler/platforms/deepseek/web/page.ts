/**
 * What the kit finds on chat.deepseek.com, by role and name first
 * (xln3/platform-v2 deepseek_adapter.py, live-calibrated 2026: the composer
 * `textarea#chat-input`, chips `div.ds-toggle-button[aria-pressed]` named
 * 深度思考 / 智能搜索, the answer `div.ds-markdown`; the sign-in page at
 * /sign_in with 微信扫码登录 / 手机号登录). The sources chip reads
 * "已搜索到 N 个网页"; its class was `.ds-search-summary` and is
 * `.ds-search-status` opening `.ds-search-panel` in other builds.
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
    toggle: { names: ['深度思考', 'DeepThink'] },
    // Drawn as a model picker, the thinking model is R1 (the 2025 site's DeepThink (R1)).
    picker: { on: ['深度思考', 'DeepThink', 'R1'] },
    fallbacks: ['div.ds-toggle-button:has-text("深度思考")'],
  },
  search: {
    site: SITE,
    label: 'web-search',
    toggle: { names: ['智能搜索', '联网搜索', 'Search'] },
    fallbacks: ['div.ds-toggle-button:has-text("搜索")'],
  },
} as const satisfies Record<string, Control>;

export const PAGE = {
  walls: { loginPaths: ['/sign_in'], login: ['微信扫码登录'] },
  controls: {
    ...CONTROLS,
    /** The send control **[real name unverified]**; Enter sends as well. */
    send: { names: ['发送', 'Send'] },
    newChat: { names: ['开启新对话', 'New chat'] },
  },
  dom: {
    answer: 'div.ds-markdown',
    stop: '[role="button"][aria-label="停止生成"], [role="button"][aria-label="Stop"]',
  },
  openSources: (page: Page) =>
    openPanel(page, {
      opener: {
        names: ['个网页', 'web pages', 'sources'],
        fallbacks: ['.ds-search-summary', '.ds-search-status'],
      },
      panel: ['.ds-sources-panel', '.ds-search-panel'],
    }),
} as const satisfies Pick<SiteSpec, 'walls' | 'controls' | 'dom' | 'openSources'>;
