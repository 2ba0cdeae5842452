/**
 * What the driver finds on perplexity.ai, by role and name first: the
 * composer (`#ask-input`, a contenteditable: Adityalingwal/AI-brand-tracker
 * `perplexity_client.py`), the Submit control, the model picker (its shown
 * choice the model: Best, or a thinking model such as Claude Sonnet 4.5
 * Thinking), the sources menu's Web switch, the New Thread control, the
 * answer (`#markdown-content-N`, ../shared/platforms.md §15: stable) and
 * the Stop control, the sources opener and its panel, and a logged-out
 * page's Log in button. The ARIA names beyond those and the sources
 * menu's shape are **[inferred]**.
 */
import type { Page } from 'playwright';
import type { Control } from '../../../web/controls.js';
import { openPanel } from '../../../web/panels.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { SITE } from './stream.js';

export const CONTROLS = {
  /** The model picker: a thinking model is deep thinking; its shown choice is the model label. */
  thinking: {
    site: SITE,
    label: 'deep-thinking',
    toggle: { names: ['Reasoning', 'Thinking'] },
    picker: { on: ['Thinking', 'Reasoning'], off: ['Best', 'Sonar', 'Auto'] },
  },
  /** The Web source, a switch in the sources menu beside the composer. */
  search: {
    site: SITE,
    label: 'web-search',
    toggle: { names: ['Web', 'Search the web'] },
  },
} as const satisfies Record<string, Control>;

export const PAGE = {
  walls: {
    login: ['Sign in or create an account', 'Continue with Google', 'Continue with email'],
    verify: ['Verify you are human', 'Checking your browser'],
  },
  controls: {
    thinking: CONTROLS.thinking,
    search: CONTROLS.search,
    send: { names: ['Submit', 'Send'], fallbacks: ['button[data-testid="submit-button"]'] },
    newChat: { names: ['New Thread', 'New thread'] },
    modelLabel: CONTROLS.thinking,
  },
  dom: {
    answer: '[id^="markdown-content-"]',
    stop: 'button[aria-label="Stop"], button[aria-label*="Stop generating"]',
  },
  openSources: (page: Page) =>
    openPanel(page, {
      // Beside the newest answer, never in its text: the composer's sources menu and the
      // answer's own words may bear the same word.
      within: (p) =>
        p.locator('div:has(> [id^="markdown-content-"]) > :not([id^="markdown-content-"])'),
      opener: { names: ['sources'], fallbacks: ['[data-testid="sources-opener"]'] },
      panel: ['[role="complementary"][aria-label="Sources"]', '[data-testid="sources-panel"]'],
    }),
} as const satisfies Pick<SiteSpec, 'walls' | 'controls' | 'dom' | 'openSources'>;
