/**
 * What the driver finds on gemini.google.com, by role and name first: the
 * composer (a contenteditable `rich-textarea .ql-editor`), Send message,
 * New chat, the model picker (Fast / Thinking: thinking is a model choice
 * there, and the picker's shown choice is the model label), Google Search
 * inside the Tools menu, the answer (`model-response message-content`), its
 * thoughts (`model-thoughts`), its sources, and Stop response.
 *
 * The page's own reading is whole (`dom.whole`): the answer's text with its
 * citation chips as `[n]`, the thoughts, every source with its title, URL
 * and icon; so where the stream cannot be placed the page answers
 * (`answerSource: "dom"`). Angular's custom elements (`model-response`,
 * `message-content`, `model-thoughts`) outlive a rebuild that renames classes.
 *
 * Basis: ../shared/platforms.md §15 (`ql-editor`, `.model-response-text`,
 * `message-content` in public scripts; RealMikeChong/10x-chat drives it);
 * the control names, the Tools menu and the sources list are **[inferred]**.
 */
import type { Page } from 'playwright';
import type { Answer } from '../../../../services/shared/contracts/answer.js';
import { buildAnswer, emptyRaw, hostOf } from '../../common/raw-answer.js';
import type { Control } from '../../../web/controls.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { SITE } from './rpc-frames.js';

export const CONTROLS = {
  /** Thinking is a model: the picker's Thinking choice, or a toggle a build draws. */
  thinking: {
    site: SITE,
    label: 'deep-thinking',
    toggle: { names: ['Thinking', 'Deep Think', '思考'] },
    picker: { on: ['Thinking', 'Deep Think', '思考'], off: ['Fast', '快速'] },
    fallbacks: ['[data-test-id="bard-mode-menu-button"]'],
  },
  search: {
    site: SITE,
    label: 'web-search',
    toggle: { names: ['Google Search', 'Search with Google', 'Google 搜索'] },
  },
} as const satisfies Record<string, Control>;

const ANSWER = 'model-response message-content';

/** Everything the page shows of the newest answer: text (chips as `[n]`), thoughts, sources. */
const READ_SCRIPT = `(() => {
  const responses = document.querySelectorAll('model-response');
  const last = responses[responses.length - 1];
  if (!last) return null;
  const content = last.querySelector('message-content');
  if (!content) return null;
  const copy = content.cloneNode(true);
  for (const chip of copy.querySelectorAll('[data-turn-source-index]'))
    chip.replaceWith('[' + chip.getAttribute('data-turn-source-index') + ']');
  // innerText needs layout: read the copy in place of the original, then put it back.
  content.replaceWith(copy);
  const text = copy.innerText;
  copy.replaceWith(content);
  const thoughts = last.querySelector('model-thoughts [data-thoughts-body], model-thoughts .thoughts-body');
  return {
    text,
    thinking: thoughts ? thoughts.innerText.trim() : '',
    sources: Array.from(last.querySelectorAll('sources-list a[href]')).map((a) => {
      const icon = a.querySelector('img');
      return {
        index: Number(a.getAttribute('data-turn-source-index')) || undefined,
        url: a.getAttribute('href') || '',
        title: (a.getAttribute('aria-label') || a.innerText || '').trim(),
        icon: icon ? icon.getAttribute('src') || '' : '',
      };
    }),
  };
})()`;

interface Reading {
  text: string;
  thinking: string;
  sources: { index?: number; url: string; title: string; icon: string }[];
}

/** The page's own reading of the newest answer; undefined when none shows. */
export async function domAnswer(page: Page): Promise<Answer | undefined> {
  const r = (await page.evaluate(READ_SCRIPT)) as Reading | null;
  if (!r) return undefined;
  const raw = emptyRaw();
  raw.content = r.text.replace(/\n+$/, '');
  raw.reasoningContent = r.thinking;
  raw.searchResults = r.sources
    .filter((s) => s.url)
    .map((s, i) => ({ ...s, index: s.index ?? i + 1, site: hostOf(s.url) }));
  return buildAnswer(raw);
}

export const PAGE = {
  walls: {
    login: ['Sign in to continue', 'Use your Google Account', 'Email or phone'],
    verify: ['unusual traffic', "I'm not a robot"],
    loginPaths: ['/ServiceLogin', '/v3/signin/identifier', '/signin'],
  },
  controls: {
    thinking: CONTROLS.thinking,
    search: CONTROLS.search,
    send: { names: ['Send message', 'Send'], fallbacks: ['button.send-button'] },
    newChat: { names: ['New chat', '发起新对话'] },
    modelLabel: CONTROLS.thinking,
  },
  dom: {
    answer: ANSWER,
    stop: 'button[aria-label="Stop response"], button[aria-label*="Stop"]',
    read: domAnswer,
    whole: true,
  },
  // The sources list sits under the answer; it shows without opening.
  openSources: async (page: Page) =>
    page
      .locator('model-response sources-list')
      .last()
      .isVisible()
      .catch(() => false),
} as const satisfies Pick<SiteSpec, 'walls' | 'controls' | 'dom' | 'openSources'>;
