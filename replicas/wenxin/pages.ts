/**
 * The replica's pages with Yiyan's own DOM hooks where a live-calibrated
 * public adapter names them (xln3/platform-v2 `yiyan_adapter.py`, 2026-07
 * to 08; daijinma/geo_marketing `yiyan.go`): the composer
 * `textarea.ci-textarea`, the send control `span.ci-submit-button`, the
 * 深度思考 chip `div.ci-model-button` with its `internet-search-icon` (on: a
 * `ci-model-button-active` class and `is_open:"1"`), answers in
 * `div.conversation-flow-answer-container` with the thought in
 * `div.ai-thinking-steps` and the text in `chat-search-answer-generate`, the
 * 「生成中」 indicator `markdown-loading`, the sidebar's 开启新对话, and
 * Baidu's passport layer (`#TANGRAM__PSP_11__smsPhone`, `span.switch-item`
 * 短信登录, `p.tang-pass-qrcode-title` 扫码登录) with its `pass-slide`
 * verification. The ERNIE model picker, the 联网搜索 chip, the sources panel
 * and every ARIA role and label are the replica's **[inferred]**.
 *
 * Page variants, the drift a new build of the site brings
 * (`POST /__replica/page-variant`):
 * - `default`: as above;
 * - `model_menu`: no 深度思考 chip; the thinking model 文心X1 Turbo is chosen
 *   in the model picker, as builds before the chip offered it;
 * - `no_search`: no 联网搜索 control at all.
 */
import { PAGE_SCRIPT } from './page-script.js';

export const PAGE_VARIANTS = ['default', 'model_menu', 'no_search'] as const;
export type PageVariant = (typeof PAGE_VARIANTS)[number];

const STYLE = `
  body { font-family: sans-serif; margin: 0; color: #1f1f1f; }
  .yy-layout { display: flex; min-height: 100vh; }
  .yy-sidebar { width: 180px; background: #f5f6fa; padding: 16px; }
  .new-chat-entry { padding: 8px 12px; border-radius: 8px; background: #e8edff; cursor: pointer; }
  .yy-main { flex: 1; display: flex; flex-direction: column; padding: 16px 32px; max-width: 820px; }
  .yy-header { display: flex; justify-content: flex-end; gap: 8px; }
  .login-button { padding: 6px 16px; border-radius: 16px; border: 0; background: #4e6ef2; color: #fff; }
  .dialogue-list { flex: 1; }
  .dialogue-human { background: #eef1ff; padding: 8px 12px; border-radius: 12px; margin: 12px 0 12px auto; width: fit-content; }
  .ai-thinking-steps { color: #666; border-left: 2px solid #ccc; padding-left: 10px; white-space: pre-wrap; }
  .source-opener { display: inline-block; background: #f1f3f8; padding: 4px 10px; border-radius: 12px; cursor: pointer; }
  .cite-chip { display: inline-block; background: #e4e8f5; border-radius: 8px; padding: 0 6px; font-size: 12px; }
  .input-box { border: 1px solid #dcdfe6; border-radius: 16px; padding: 12px; }
  .ci-textarea { width: 100%; min-height: 48px; border: 0; outline: none; resize: none; font-size: 15px; }
  .input-tools { display: flex; gap: 8px; align-items: center; }
  .ci-model-select, .ci-model-button, .ci-search-button { border: 1px solid #ccc; border-radius: 14px; padding: 4px 12px; cursor: pointer; user-select: none; background: #fff; font-size: 14px; }
  .ci-model-button-active, .ci-search-button[aria-pressed="true"] { background: #e8edff; border-color: #4e6ef2; color: #4e6ef2; }
  .ci-model-menu { position: absolute; top: 30px; background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 4px; z-index: 2; }
  .ci-model-menu [role^="menuitem"] { display: block; padding: 6px 12px; cursor: pointer; white-space: nowrap; }
  .ci-submit-button, .markdown-loading { margin-left: auto; width: 34px; height: 34px; border-radius: 50%; background: #4e6ef2; cursor: pointer; display: inline-block; }
  .markdown-loading { background: #111; }
  [hidden] { display: none !important; }
  .yy-refs { width: 320px; border-left: 1px solid #eee; padding: 16px; }
  .cosd-note-card { display: block; padding: 8px; margin: 6px 0; border-radius: 8px; background: #f8f9fc; }
  .yy-dialog { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; }
  .yy-dialog__body { background: #fff; border-radius: 12px; padding: 24px; text-align: center; min-width: 320px; }
  .yy-dialog iframe { width: 200px; height: 220px; border: 0; }
  .pass-slide { margin-top: 12px; height: 36px; border-radius: 18px; background: #eef0f5; }
  .yy-toast { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); background: #333; color: #fff; padding: 8px 16px; border-radius: 8px; }
`;

export function chatPage(variant: PageVariant): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>文心一言</title><style>${STYLE}</style></head>
<body>
<div class="yy-layout">
  <nav class="yy-sidebar"><div class="new-chat-entry" role="button" tabindex="0" data-r="new-chat" data-new-chat>开启新对话</div></nav>
  <main class="yy-main">
    <header class="yy-header" data-r="header"></header>
    <div class="yy-loading" data-r="loading">加载中…</div>
    <div class="dialogue-list" data-r="list"></div>
    <div class="input-box" data-r="input-box" hidden>
      <textarea class="ci-textarea ci-scroll-style" aria-label="输入问题" placeholder="有什么问题尽管问我" data-r="editor"></textarea>
      <div class="input-tools" data-r="tools"></div>
    </div>
  </main>
  <aside class="yy-refs" role="complementary" aria-label="参考资料" data-r="refs" hidden></aside>
</div>
<div class="yy-dialog" role="dialog" aria-modal="true" aria-label="登录百度账号" data-r="login" hidden></div>
<div class="yy-dialog" role="dialog" aria-modal="true" aria-label="百度安全验证" data-r="captcha" hidden><div class="yy-dialog__body">
  <p>百度安全验证</p><p data-r="captcha-text"></p><div class="pass-slide vcode-slide"></div></div></div>
<div class="yy-toast" role="alert" data-r="toast" hidden></div>
<script>var PAGE_VARIANT = ${JSON.stringify(variant)};${PAGE_SCRIPT}</script>
</body></html>`;
}
