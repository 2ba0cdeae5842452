/**
 * The replica's chat page as ChatGLM's might be drawn. Public projects drive
 * chatglm.cn through its API, not its page, so the page's hooks are the
 * replica's own **[inferred]**: a textarea composer, the 深度思考 and
 * 联网搜索 toggles (pressed buttons), the model label near the composer
 * (GLM-4.6, a menu), the send and stop controls, answers in `.answer` with
 * their `.markdown-body`, the chain of thought above, the N 个网页 opener of
 * the sources panel, the 新建对话 control (marked `data-new-chat`), and a
 * logged-out page's 登录 button with its login dialog (手机号登录 /
 * 微信扫码登录).
 */
import { PAGE_SCRIPT } from './page-script.js';

const STYLE = `
  body { font-family: sans-serif; margin: 0; color: #222; }
  .layout { display: flex; min-height: 100vh; }
  .side-nav { width: 72px; background: #f5f6fa; padding: 12px; }
  .new-chat-btn { width: 36px; height: 36px; border-radius: 8px; background: #dfe4ff; cursor: pointer; }
  .main-col { flex: 1; display: flex; flex-direction: column; padding: 16px 32px; max-width: 800px; }
  .top-bar { display: flex; justify-content: flex-end; }
  .login-btn { padding: 6px 16px; border-radius: 16px; border: 0; background: #3b5bff; color: #fff; }
  .chat-list { flex: 1; }
  .question { background: #eef1ff; padding: 8px 12px; border-radius: 12px; margin: 12px 0 12px auto; width: fit-content; }
  .think-block { color: #666; border-left: 2px solid #ccc; padding-left: 10px; white-space: pre-wrap; }
  .search-source-opener { display: inline-block; background: #f1f5f9; padding: 4px 10px; border-radius: 12px; cursor: pointer; }
  .cite-chip { background: #e5e7eb; border-radius: 8px; padding: 0 5px; font-size: 11px; }
  .input-box { border: 1px solid #ddd; border-radius: 16px; padding: 12px; }
  .input-box textarea { width: 100%; min-height: 48px; border: 0; outline: none; resize: none; font: inherit; }
  .tool-row { display: flex; gap: 8px; align-items: center; }
  .tool-chip, .model-select { border: 1px solid #ccc; border-radius: 14px; padding: 4px 12px; cursor: pointer; background: #fff; }
  .tool-chip[aria-pressed="true"], .tool-chip[aria-checked="true"] { background: #dfe4ff; border-color: #3b5bff; color: #3b5bff; }
  .model-menu { position: absolute; background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 4px; }
  .model-menu [role^="menuitem"] { display: block; padding: 6px 12px; cursor: pointer; white-space: nowrap; }
  .enter-icon-container, .stop-btn { margin-left: auto; width: 34px; height: 34px; border-radius: 50%; background: #3b5bff; cursor: pointer; }
  .stop-btn { background: #111; }
  [hidden] { display: none !important; }
  .search-source-panel { width: 320px; border-left: 1px solid #eee; padding: 16px; }
  .source-card { display: block; padding: 8px; margin: 6px 0; border-radius: 8px; background: #f8fafc; }
  .modal-mask { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; }
  .modal-body { background: #fff; border-radius: 12px; padding: 24px; text-align: center; }
  .toast-msg { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); background: #333; color: #fff; padding: 8px 16px; border-radius: 8px; }
`;

export function chatPage(): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>智谱清言</title><style>${STYLE}</style></head>
<body>
<div class="layout">
  <nav class="side-nav"><div class="new-chat-btn" role="button" tabindex="0" aria-label="新建对话" data-r="new-chat" data-new-chat></div></nav>
  <main class="main-col">
    <header class="top-bar" data-r="header"></header>
    <div class="loading-tip" data-r="loading">加载中…</div>
    <div class="chat-list" data-r="list"></div>
    <div class="input-box" data-r="input-box" hidden>
      <textarea aria-label="输入框" placeholder="向智谱清言提问" data-r="editor"></textarea>
      <div class="tool-row" data-r="tools"></div>
    </div>
  </main>
  <aside class="search-source-panel" role="complementary" aria-label="参考来源" data-r="refs" hidden></aside>
</div>
<div class="modal-mask" role="dialog" aria-modal="true" aria-label="登录" data-r="login" hidden><div class="modal-body">
  <h2>登录智谱清言</h2><p>手机号登录</p><input aria-label="手机号" placeholder="请输入手机号"><p>微信扫码登录</p></div></div>
<div class="modal-mask" role="dialog" aria-modal="true" aria-label="安全验证" data-r="captcha" hidden><div class="modal-body">
  <p>安全验证</p><p>请拖动滑块完成验证</p></div></div>
<div class="toast-msg" role="alert" data-r="toast" hidden></div>
<script>${PAGE_SCRIPT}</script>
</body></html>`;
}
