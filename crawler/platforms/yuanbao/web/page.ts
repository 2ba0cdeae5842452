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
 * (daijinma/geo_marketing `yuanbao.go` checks exactly that). The sources
 * opener's words (N 篇资料) and the ARIA names are **[inferred]**.
 */
import type { Page } from 'playwright';
import type { Control } from '../../../web/controls.js';
import { SITE } from './stream.js';

const CHIP_ROLES = ['button', 'switch', 'checkbox'] as const;

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
    toggle: { roles: CHIP_ROLES, names: ['深度思考', 'DeepThink'] },
    picker: { on: ['深度思考'], off: ['快速回答'] },
    fallbacks: ['[dt-button-id="deep_think"]', '[class*="ThinkSelector_iconContainer"]'],
  },
  search: {
    site: SITE,
    label: 'web-search',
    toggle: { roles: CHIP_ROLES, names: ['联网搜索', '联网', 'Web search'] },
    fallbacks: ['.yb-internet-search-btn', '[class*="internet-search"]'],
  },
} as const satisfies Record<string, Control>;

export const PAGE = {
  composer:
    '[role="textbox"][contenteditable="true"], .ql-editor[contenteditable="true"], textarea',
  send: { names: ['发送', 'Send'], fallbacks: ['#yuanbao-send-btn', 'a[class*="send-btn"]'] },
  dom: {
    answer: '.agent-chat__bubble--ai .hyc-common-markdown, [class*="hyc-common-markdown"]',
    stop: '[role="button"][aria-label="停止回答"], [role="button"][aria-label*="停止"]',
  },
  walls: { login: ['微信扫码登录', '微信登录', 'QQ登录'], verify: ['验证码'] },
} as const;

/** Words of the site's own rate and quota notices (xln3/platform-v2's notice list). */
export const RATE_WORDS = /请求过频|过于频繁|太频繁|频率过高|次数已达|人数过多/;
export const LOCATION_WORDS = /位置验证|验证位置/;

/** Leaves the sources drawer open for the screenshot; false when the page shows none. */
export async function openSources(page: Page): Promise<boolean> {
  const opener = page
    .getByRole('button', { name: /\d+\s*篇资料/ })
    .or(page.locator('[class*="agent-dialogue-references__opener"]'))
    .last();
  if (!(await opener.isVisible().catch(() => false))) return false;
  await opener.click({ timeout: 2_500 });
  await page
    .getByRole('complementary', { name: /参考资料|资料/ })
    .or(page.locator('.agent-dialogue-references'))
    .first()
    .waitFor({ state: 'visible', timeout: 2_500 });
  return true;
}
