/**
 * The replica's pages with Yuanbao's own DOM hooks where public projects
 * name them (pathauto1/douzhi-chat `src/providers/yuanbao.ts`; xln3/
 * platform-v2 `yuanbao_adapter.py`, live-calibrated 2026): the Quill composer
 * `.ql-editor[contenteditable]`, the send control `#yuanbao-send-btn`, the
 * 深度思考 toggle (`dt-button-id="deep_think"`, `ThinkSelector_*` classes,
 * on = a `ThinkSelector_selected_*` class), the 联网搜索 toggle
 * `.yb-internet-search-btn` (on = an `…active…` class), the model switch
 * (`dt-button-id="model_switch"`, Hy3 / DeepSeek), answer bubbles
 * `.agent-chat__bubble--ai` with `.hyc-common-markdown` and the chain of
 * thought in `…deepsearch-cot__think`, the sources drawer
 * `.agent-dialogue-references`, the new-chat trigger
 * `.yb-common-nav__trigger`, and the 登录 button of a logged-out page. ARIA
 * roles and labels on them are the replica's **[inferred]**.
 *
 * Page variants, the drift a new build of the site brings:
 * - `default`: as above;
 * - `hashed`: every class name hashed (state as `aria-pressed` instead);
 * - `switch`: both toggles as `role=switch` with `aria-checked`;
 * - `merged`: 深度思考 chosen in a 快速回答 / 深度思考 / 专家模式 menu, as
 *   the site's 2026-08-31 build shows;
 * - `no_search`: no 联网搜索 control at all (the same build showed none).
 */
import { createHash } from 'node:crypto';
import { PAGE_SCRIPT } from './page-script.js';

export const PAGE_VARIANTS = ['default', 'hashed', 'switch', 'merged', 'no_search'] as const;
export type PageVariant = (typeof PAGE_VARIANTS)[number];

const STYLE = `
  body { font-family: sans-serif; margin: 0; color: #222; }
  .yb-layout { display: flex; min-height: 100vh; }
  .yb-common-nav { width: 64px; background: #f4f5f7; padding: 12px; display: flex; flex-direction: column; gap: 12px; }
  .yb-common-nav__trigger { width: 32px; height: 32px; border-radius: 8px; background: #dfe7ff; cursor: pointer; }
  .yb-main { flex: 1; display: flex; flex-direction: column; padding: 16px 32px; max-width: 780px; }
  .yb-header { display: flex; justify-content: flex-end; gap: 8px; }
  .yb-login-btn { padding: 6px 16px; border-radius: 16px; border: 0; background: #1f6fff; color: #fff; }
  .agent-chat__list { flex: 1; }
  .agent-chat__bubble--human { background: #eef3ff; padding: 8px 12px; border-radius: 12px; margin: 12px 0 12px auto; width: fit-content; }
  .hyc-component-deepsearch-cot__think { color: #666; border-left: 2px solid #ccc; padding-left: 10px; white-space: pre-wrap; }
  .agent-dialogue-references__opener { display: inline-block; background: #f1f5f9; padding: 4px 10px; border-radius: 12px; cursor: pointer; }
  .hyc-common-markdown__ref { display: inline-block; background: #e5e7eb; border-radius: 8px; padding: 0 6px; font-size: 12px; }
  .yb-input-box { border: 1px solid #ddd; border-radius: 16px; padding: 12px; }
  .ql-editor { min-height: 48px; outline: none; }
  .yb-input-tools { display: flex; gap: 8px; align-items: center; }
  .yb-chip { border: 1px solid #ccc; border-radius: 14px; padding: 4px 12px; cursor: pointer; user-select: none; background: #fff; }
  .ThinkSelector_selected__q8x, .index_v2_active__mMizI, .yb-chip[aria-pressed="true"], .yb-chip[aria-checked="true"] { background: #dfe7ff; border-color: #1f6fff; color: #1f6fff; }
  .yb-menu { position: absolute; background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 4px; }
  .yb-menu [role^="menuitem"] { display: block; padding: 6px 12px; cursor: pointer; }
  .style__send-btn___RwTm5, .yb-stop-btn { margin-left: auto; width: 34px; height: 34px; border-radius: 50%; background: #1f6fff; cursor: pointer; display: inline-block; }
  .yb-stop-btn { background: #111; }
  [hidden] { display: none !important; }
  .agent-dialogue-references { width: 320px; border-left: 1px solid #eee; padding: 16px; }
  .agent-dialogue-references__ref_card { display: block; padding: 8px; margin: 6px 0; border-radius: 8px; background: #f8fafc; }
  .yb-dialog { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; }
  .yb-dialog__body { background: #fff; border-radius: 12px; padding: 24px; text-align: center; }
  .yb-dialog iframe { width: 240px; height: 280px; border: 0; }
  .yb-toast { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); background: #333; color: #fff; padding: 8px 16px; border-radius: 8px; }
`;

/** Class names of the site's families; the `hashed` build renames each, as a bundler would. */
const CLASS_NAME = /\b(?:yb-|agent-|hyc-|ql-|icon-yb-|ThinkSelector_|index_v2_|style__)[\w-]*/g;
const hashed = (html: string) =>
  html.replace(
    CLASS_NAME,
    (name) => `_${createHash('sha1').update(name).digest('hex').slice(0, 6)}`,
  );

export function chatPage(variant: PageVariant): string {
  const html = `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>腾讯元宝</title><style>${STYLE}</style></head>
<body>
<div class="yb-layout">
  <nav class="yb-common-nav"><div class="yb-common-nav__trigger" role="button" tabindex="0" aria-label="新建对话" data-r="new-chat" data-new-chat><span class="icon-yb-ic_newchat_20"></span></div></nav>
  <main class="yb-main">
    <header class="yb-header" data-r="header"></header>
    <div class="yb-loading" data-r="loading">加载中…</div>
    <div class="agent-chat__list" data-r="list"></div>
    <div class="yb-input-box" data-r="input-box" hidden>
      <div class="ql-editor" contenteditable="true" role="textbox" aria-label="输入框" data-placeholder="有问题，尽管问" data-r="editor"></div>
      <div class="yb-input-tools" data-r="tools"></div>
    </div>
  </main>
  <aside class="agent-dialogue-references" role="complementary" aria-label="参考资料" data-r="refs" hidden></aside>
</div>
<div class="yb-dialog" role="dialog" aria-modal="true" aria-label="登录" data-r="login" hidden><div class="yb-dialog__body">
  <h2>微信扫码登录</h2><iframe title="微信登录二维码" data-r="qr"></iframe><p>手机号登录 · QQ登录</p></div></div>
<div class="yb-dialog" role="dialog" aria-modal="true" aria-label="安全验证" data-r="captcha" hidden><div class="yb-dialog__body">
  <p>请完成安全验证</p><iframe title="验证码" src="about:blank" data-r="captcha-frame"></iframe></div></div>
<div class="yb-dialog" role="dialog" aria-modal="true" aria-label="位置验证" data-r="location" hidden><div class="yb-dialog__body">
  <p data-r="location-text"></p><button type="button">去验证</button></div></div>
<div class="yb-toast" role="alert" data-r="toast" hidden></div>
<script>var PAGE_VARIANT = ${JSON.stringify(variant)};${PAGE_SCRIPT}</script>
</body></html>`;
  return variant === 'hashed' ? hashed(html) : html;
}

export const CAPTCHA_PAGE = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>验证码</title></head>
<body><p>请完成安全验证</p><p>请输入图中的字符</p></body></html>`;
