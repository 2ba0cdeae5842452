/**
 * What the driver finds on chat.qwen.ai (and the domestic site), by role and
 * name first: the 深度思考 (Thinking) and 联网搜索 (Search) buttons beside the
 * composer, the model picker whose shown choice names the model (Qwen3-Max
 * …), the send and 新建对话 (New Chat) controls, the sources opener (N 个来源).
 * Fallbacks are the hooks of Open WebUI, from which chat.qwen.ai's front end
 * derives (`#chat-input`, `#send-message-button`,
 * `#response-content-container`) **[inferred]**; the ARIA names, the
 * sources panel and the sign-in page's words are **[inferred]** (the
 * sign-in path `/auth` is public clients').
 */
import type { Page } from 'playwright';
import type { Control } from '../../../web/controls.js';
import { openPanel } from '../../../web/panels.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { SITE } from './envelope.js';

export const CONTROLS = {
  thinking: {
    site: SITE,
    label: 'deep-thinking',
    toggle: { names: ['深度思考', 'Thinking'] },
    // A build that draws it as a picker of model names (the thinking one so named).
    picker: { on: ['深度思考', 'Thinking'] },
    fallbacks: ['[class*="thinking-toggle"]'],
  },
  search: {
    site: SITE,
    label: 'web-search',
    toggle: { names: ['联网搜索', 'Web search', 'Search'] },
    fallbacks: ['[class*="web-search-toggle"]'],
  },
  /** The model picker: its shown choice is the page's label for the model (never set). */
  model: { site: SITE, label: 'model', picker: { on: ['Qwen', 'QwQ', '千问', '通义'] } },
} as const satisfies Record<string, Control>;

export const PAGE = {
  walls: {
    login: ['登录千问', '登录通义', 'Sign in to Qwen', '使用邮箱登录'],
    verify: ['拖动下方滑块', '请按住滑块'],
    loginPaths: ['/auth'],
  },
  controls: {
    thinking: CONTROLS.thinking,
    search: CONTROLS.search,
    send: { names: ['发送', 'Send'], fallbacks: ['#send-message-button'] },
    newChat: { names: ['新建对话', 'New Chat'] },
    modelLabel: CONTROLS.model,
  },
  dom: {
    answer: '#response-content-container, [class*="markdown-content-container"]',
    stop: 'button[aria-label="停止生成"], button[aria-label="Stop"]',
  },
  openSources: (page: Page) =>
    openPanel(page, {
      opener: { names: ['个来源', 'Sources'], fallbacks: ['[class*="search-sources-opener"]'] },
      panel: ['[role="complementary"][aria-label="搜索来源"]', '[class*="search-sources-panel"]'],
    }),
} as const satisfies Pick<SiteSpec, 'walls' | 'controls' | 'dom' | 'openSources'>;
