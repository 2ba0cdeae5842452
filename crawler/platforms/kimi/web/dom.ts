/**
 * What the kit finds on Kimi's page, by role and name first: the composer is
 * whatever textbox the page shows (the `msh-chatinput-editor` test id of
 * platforms.md §15, or a Lexical contenteditable `role=textbox`
 * `data-lexical-editor` without it); 长思考 / 联网搜索 as switches, deep
 * thinking also as a model picker (K2.5 快速 / K2.5 思考), the search switch
 * also inside the popover of a tools button; the send button turning into a
 * stop button while an answer streams; the answer's "N 个网页" card opening
 * the sources panel. The class names are **unverified** against the live
 * site and are the first thing to re-check with `driver-check`.
 */
import type { Page } from 'playwright';
import type { Control } from '../../../web/controls.js';
import { openPanel } from '../../../web/panels.js';
import type { SiteSpec } from '../../../web/site-spec.js';

export const SITE = 'kimi';
export const CONTROLS = {
  thinking: {
    site: SITE,
    label: 'deep-thinking',
    toggle: { names: ['长思考', 'Thinking', 'k1.5'] },
    // K2.5 快速 / K2.5 思考, or the older picker's model names: Kimi / 长思考 (k1.5).
    picker: { on: ['思考', 'Thinking'], off: ['快速', 'Instant'] },
  },
  search: {
    site: SITE,
    label: 'web-search',
    // A switch in the composer, or in the 工具 popover (found behind it, controls.ts).
    toggle: { names: ['联网搜索', 'Web search', 'Search'] },
  },
} as const satisfies Record<string, Control>;

export const PAGE = {
  walls: { login: ['登录 Kimi', 'Log in to Kimi'] },
  controls: {
    ...CONTROLS,
    send: { names: ['发送', 'Send'], fallbacks: ['[data-testid="msh-chatinput-send-button"]'] },
    newChat: { names: ['新建会话', 'New Chat'] },
    // The K2.5 快速 / K2.5 思考 picker names the model (web-channel.md); the switches name none.
    modelLabel: CONTROLS.thinking,
  },
  dom: {
    answer: '.segment-assistant .segment-container',
    stop: '[data-testid="msh-chatinput-send-button"].stop, [role="button"][aria-label*="停止"]',
  },
  openSources: (page: Page) =>
    openPanel(page, {
      within: (p) => p.locator('.segment-assistant').last(),
      opener: { names: ['个网页', 'sources'], fallbacks: ['.site-card-button'] },
      panel: ['.sources-panel'],
    }),
} as const satisfies Pick<SiteSpec, 'walls' | 'controls' | 'dom' | 'openSources'>;
