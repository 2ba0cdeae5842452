/**
 * What the driver finds on chatgpt.com, by role and name first, then by the
 * hooks public notes name (../shared/web-channel.md "ChatGPT, 2025–2026"):
 * the ProseMirror composer `#prompt-textarea` (contenteditable), the send
 * control (`Send prompt`, `[data-testid="send-button"]`), the stop control
 * (`Stop streaming`, `[data-testid="stop-button"]`), the reasoning and
 * search chosen in the composer's "+" tools menu and shown as pills
 * (`Think longer`, `Web search`: the menu's items are set and read; the
 * pill a chosen mode shows, `Think` / `Search`, is left alone, since a
 * click removes it from the page), the model picker
 * in the header (`[data-testid="model-switcher-dropdown-button"]`, showing
 * `ChatGPT 5`), the new-chat link (`New chat`), the answer's turn
 * `[data-message-author-role="assistant"]` with its `.markdown`, and the
 * Sources button that opens the sources panel. A logged-out chatgpt.com
 * still shows a composer (anonymous chat) with `Log in` / `Sign up`
 * buttons: the kit's recognise.ts reads that lone login button as a login
 * wall. Cloudflare's interstitial and a Turnstile are walls the kit names
 * and never passes. The pills' exact ARIA names, the menu's words and the
 * sources panel's name are **[inferred]**.
 */
import type { Page } from 'playwright';
import type { Control } from '../../../web/controls.js';
import { openPanel } from '../../../web/panels.js';
import type { SiteSpec } from '../../../web/site-spec.js';

const SITE = 'chatgpt';

export const CONTROLS = {
  thinking: {
    site: SITE,
    label: 'deep-thinking',
    // Not the removable pill a chosen mode shows (`Think`): a click takes it off the page.
    toggle: { names: ['Think longer'] },
    // A picker of model names (Instant / Thinking), as the model picker of some builds is.
    picker: { on: ['Thinking'], off: ['Instant'] },
    fallbacks: ['[data-testid="composer-reasoning-pill"]'],
  },
  search: {
    site: SITE,
    label: 'web-search',
    // Not the removable pill (`Search`), as for thinking.
    toggle: { names: ['Web search', 'Search the web'] },
    fallbacks: ['[data-testid="composer-search-pill"]'],
  },
  /** The model picker in the header; never set, only read. */
  model: {
    site: SITE,
    label: 'model',
    picker: { on: ['ChatGPT Pro'], off: ['ChatGPT 5', 'ChatGPT'] },
  },
} as const satisfies Record<string, Control>;

export const PAGE = {
  walls: {
    login: ['Welcome back', 'Log in or sign up', 'Sign up for free'],
    verify: ['Verify you are human', 'Just a moment'],
    loginPaths: ['/auth/login'],
  },
  controls: {
    thinking: CONTROLS.thinking,
    search: CONTROLS.search,
    send: {
      names: ['Send prompt', 'Send message'],
      fallbacks: ['[data-testid="send-button"]', '#composer-submit-button'],
    },
    newChat: { names: ['New chat'], fallbacks: ['[data-testid="create-new-chat-button"]'] },
    modelLabel: CONTROLS.model,
  },
  dom: {
    answer: '[data-message-author-role="assistant"] .markdown',
    stop: '[data-testid="stop-button"], button[aria-label="Stop streaming"]',
  },
  openSources: (page: Page) =>
    openPanel(page, {
      opener: { names: ['Sources'], fallbacks: ['[data-testid="sources-button"]'] },
      panel: ['[role="complementary"][aria-label="Sources"]', '[data-testid="sources-panel"]'],
    }),
} as const satisfies Pick<SiteSpec, 'walls' | 'controls' | 'dom' | 'openSources'>;
