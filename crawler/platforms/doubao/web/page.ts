/**
 * Doubao's chat page as the driver sees it: the DOM hooks the public projects
 * rely on (platforms.md §15: pathauto1/douzhi-chat `src/providers/doubao.ts`,
 * Qualia-Li/llm-crawler `askDoubao.ts`, xln3/platform-v2 `doubao_adapter.py`)
 * and the page checks built on them. Scripts run in the page are plain
 * strings, so no loader can rewrite them.
 */
import type { Page } from 'playwright';
import type { Answer } from '../../../../services/shared/contracts/answer.js';
import { buildAnswer, emptyRaw } from '../../common/raw-answer.js';
import type { Control } from '../../../web/controls.js';
import { openPanel } from '../../../web/panels.js';
import { SITE } from './site-errors.js';

/** How long the answer's action bar and the sources panel may take to show. */
const SETTLE_MS = 5_000;

export const SEL = {
  answer: '[data-testid="receive_message"]',
  content: '[data-testid="receive_message"] [data-testid="message_content"]',
  stop: '[data-testid="chat_input_stop_button"], button[aria-label*="停止"]',
  done: '[data-testid="message_action_like"]',
  sourcesPanel: '[data-testid="search-reference-ui-v3"]',
} as const;

/**
 * The 深度思考 / 联网搜索 controls, by what they say: a switch or pressed
 * button named so, deep thinking also as the 快速 / 专家 model picker; the
 * public projects' test ids last.
 */
export const CONTROLS = {
  deepThinking: {
    site: SITE,
    label: 'deep-thinking',
    toggle: { names: ['深度思考', 'Deep think', 'DeepThink'] },
    // The 快速 / 专家 picker, or one showing model names (the thinking one so named).
    picker: { on: ['专家', 'Expert', '深度思考', 'thinking'], off: ['快速', 'Fast'] },
    fallbacks: ['[data-testid="deep_think_button"]'],
  },
  webSearch: {
    site: SITE,
    label: 'web-search',
    toggle: { names: ['联网搜索', 'Web search'] },
    fallbacks: ['[data-testid="web_search_button"]'],
  },
} as const satisfies Record<string, Control>;

/** Leaves the finished answer (its action bar shown) with its 参考 N 篇资料 panel open. */
export async function openSources(page: Page): Promise<boolean> {
  await page
    .locator(SEL.done)
    .last()
    .waitFor({ state: 'visible', timeout: SETTLE_MS })
    .catch(() => undefined);
  return openPanel(page, {
    within: (p) => p.locator(SEL.answer).last(),
    opener: { names: ['篇资料', 'sources'] },
    panel: [SEL.sourcesPanel],
  });
}

/** Everything the DOM shows of the newest answer (the fallback when the stream says too little). */
const SNAPSHOT_SCRIPT = `(() => {
  const t = (el) => (el ? (el.innerText || el.textContent || '').trim() : '');
  const answers = document.querySelectorAll('[data-testid="receive_message"]');
  const last = answers[answers.length - 1];
  if (!last) return null;
  // By structure, not class names (a release renames them): the think block's last part is
  // its text (its first, the title); a source's footer is the row around its icon, whose
  // number is the citation and whose other text the site.
  const think = last.querySelector('[data-testid="think_block"]');
  const thinkText = think && think.children.length > 1 ? think.children[think.children.length - 1] : null;
  return {
    text: t(last.querySelector('[data-testid="message_content"]')),
    reasoning: t(thinkText),
    sources: Array.from(document.querySelectorAll('[data-testid="search-reference-ui-v3"] [data-testid="search-text-item"]')).map((item) => {
      const a = item.querySelector('a[href]');
      const icon = Array.from(item.querySelectorAll('img')).find((img) => !a || !a.contains(img));
      const bits = icon && icon.parentElement ? Array.from(icon.parentElement.children).filter((c) => c !== icon).map(t) : [];
      return {
        index: Number(bits.find((b) => /^\\d+$/.test(b))) || undefined,
        title: t(a),
        url: a ? a.getAttribute('href') || '' : '',
        site: bits.find((b) => b && !/^\\d+$/.test(b)) || '',
        icon: icon ? icon.getAttribute('src') || '' : '',
      };
    }),
    videos: Array.from(last.querySelectorAll('[data-testid="video-card"]')).map((v) => {
      const cover = v.querySelector('img');
      return {
        index: Number(v.getAttribute('data-index')) || undefined,
        url: v.getAttribute('href') || '',
        title: t(v),
        platform: v.getAttribute('data-platform') || '',
        cover: cover ? cover.getAttribute('src') || '' : '',
      };
    }),
    followUps: Array.from(last.querySelectorAll('[data-foundation-type="receive-message-suggest-foundation"] [role="button"]')).map(t),
  };
})()`;

interface Snapshot {
  text: string;
  reasoning: string;
  sources: { index?: number; title: string; url: string; site: string; icon: string }[];
  videos: { index?: number; url: string; title: string; platform: string; cover: string }[];
  followUps: string[];
}

/** The DOM's answer with its videos; undefined when no answer is shown. */
export async function domAnswer(page: Page): Promise<Answer | undefined> {
  const s = (await page.evaluate(SNAPSHOT_SCRIPT)) as Snapshot | null;
  if (!s) return undefined;
  const raw = emptyRaw();
  raw.content = s.text;
  raw.reasoningContent = s.reasoning;
  for (const r of [...s.sources, ...s.videos.map((v) => ({ ...v, site: v.platform, icon: '' }))]) {
    if (r.url && !raw.searchResults.some((x) => x.url === r.url)) raw.searchResults.push(r);
  }
  raw.citedIndices = raw.searchResults.map((r, i) => r.index ?? i + 1);
  raw.relatedQuestions = s.followUps.filter(Boolean);
  const answer = buildAnswer(raw);
  for (const v of s.videos.filter((v) => v.url))
    answer.mediaContent.push({ type: 'video', url: v.url, title: v.title, thumbnail: v.cover });
  return answer;
}
