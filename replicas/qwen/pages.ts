/**
 * The replica's pages: the chat page (Open WebUI's hooks, from which
 * chat.qwen.ai's front end derives: `#chat-input`, `#send-message-button`,
 * `#model-selector-0-button`, `#response-content-container`; the ARIA names,
 * the 深度思考 / 联网搜索 buttons' markup and the sources panel are the
 * replica's **[inferred]**), the sign-in page at `/auth`, and the WAF's
 * pages a call without the page's baxia signatures gets: a slider
 * (拖动滑块) or a plain refusal.
 */
import { PAGE_SCRIPT } from './page-script.js';

export type SiteKind = 'intl' | 'domestic';

const STYLE = `
  body { font-family: sans-serif; margin: 0; color: #222; }
  .app { display: flex; min-height: 100vh; }
  .sidebar { width: 180px; background: #f6f6f8; padding: 12px; }
  .sidebar-new-chat-button { width: 100%; padding: 8px; border-radius: 8px; border: 1px solid #ddd; background: #fff; cursor: pointer; }
  .main { flex: 1; display: flex; flex-direction: column; padding: 16px 32px; max-width: 800px; }
  .user-message { background: #eef3ff; padding: 8px 12px; border-radius: 12px; margin: 12px 0 12px auto; width: fit-content; }
  .thinking-block { color: #666; border-left: 2px solid #ccc; padding-left: 10px; white-space: pre-wrap; }
  .search-sources-opener { background: #f1f5f9; border: 0; padding: 4px 10px; border-radius: 12px; cursor: pointer; }
  .citation-chip { background: #e5e7eb; border-radius: 8px; padding: 0 5px; font-size: 11px; }
  .composer { border: 1px solid #ddd; border-radius: 16px; padding: 12px; margin-top: auto; }
  #chat-input { width: 100%; min-height: 48px; border: 0; outline: none; resize: none; font: inherit; }
  .composer-tools { display: flex; gap: 8px; align-items: center; }
  .chat-input-feature-btn { border: 1px solid #ccc; border-radius: 14px; padding: 4px 12px; cursor: pointer; user-select: none; }
  .chat-input-feature-btn.active, .chat-input-feature-btn[aria-pressed="true"], .chat-input-feature-btn[aria-checked="true"] { background: #ece8ff; border-color: #615ced; color: #615ced; }
  #send-message-button, [data-r="stop"] { margin-left: auto; width: 34px; height: 34px; border-radius: 50%; border: 0; background: #615ced; color: #fff; cursor: pointer; }
  .model-menu { position: absolute; background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 4px; }
  .model-menu [role^="menuitem"] { display: block; padding: 6px 12px; cursor: pointer; }
  .search-sources-panel { width: 300px; border-left: 1px solid #eee; padding: 16px; }
  .search-source-card { display: block; padding: 8px; margin: 6px 0; border-radius: 8px; background: #f8fafc; }
  .waf-slider { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; }
  .toast { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); background: #333; color: #fff; padding: 8px 16px; border-radius: 8px; }
  [hidden] { display: none !important; }
`;

/** The chat page of the international site or of the domestic one (its own chat call). */
export function chatPage(kind: SiteKind): string {
  const title = kind === 'domestic' ? '千问' : 'Qwen Chat';
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style></head>
<body><div class="app">
  <nav class="sidebar" aria-label="侧边栏">
    <button type="button" class="sidebar-new-chat-button" aria-label="新建对话" data-new-chat data-r="new-chat">新建对话</button>
  </nav>
  <main class="main">
    <header class="chat-header"><span style="position:relative" data-r="model"></span></header>
    <div class="loading" data-r="loading">加载中…</div>
    <div class="messages" data-r="list"></div>
    <div class="composer" data-r="composer" hidden>
      <textarea id="chat-input" aria-label="输入消息" placeholder="有什么我能帮您的吗？" data-r="input"></textarea>
      <div class="composer-tools" data-r="tools"></div>
    </div>
  </main>
  <aside class="search-sources-panel" role="complementary" aria-label="搜索来源" data-r="sources" hidden></aside>
</div>
<div class="waf-slider" role="dialog" aria-modal="true" aria-label="安全验证" data-r="slider" hidden>
  <div><p>请按住滑块，拖动到最右边</p><div class="nc_scale"><span class="nc_iconfont btn_slide">&gt;&gt;</span></div></div></div>
<div class="toast" role="alert" data-r="toast" hidden></div>
<script>var SITE_KIND = ${JSON.stringify(kind)};${PAGE_SCRIPT}</script>
</body></html>`;
}

/** The sign-in page a logged-out visitor is sent to. */
export const SIGN_IN_PAGE = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>登录 - Qwen</title></head>
<body><main><h1>登录千问</h1><p>Sign in to Qwen</p>
<form data-r="signin"><label>邮箱 <input type="email" name="email" autocomplete="username"></label>
<label>密码 <input type="password" name="password" autocomplete="current-password"></label>
<button type="submit">登录</button></form><p>使用邮箱登录 · 继续使用 Google 登录</p></main>
<script>
document.querySelector('[data-r="signin"]').addEventListener('submit', async function(e){
  e.preventDefault();
  var f = new FormData(e.target);
  var r = await fetch('/api/v1/auths/signin', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: f.get('email'), password: f.get('password') }) });
  var b = await r.json();
  if (b.token) { localStorage.setItem('token', b.token); location.href = '/'; }
});
</script></body></html>`;

/** The WAF's slider page, HTTP 200, instead of the stream. */
export const WAF_SLIDER = `<!doctype html><html><head><meta charset="utf-8"><title>验证</title></head>
<body><div id="baxia-dialog-content"><p>请按住滑块，拖动到最右边</p><div class="nc_scale"><span class="btn_slide">&gt;&gt;</span></div></div>
<script src="https://g.alicdn.com/AWSC/AWSC/awsc.js"></script></body></html>`;

/** The WAF's refusal of access, HTTP 200. */
export const WAF_DENIED = `<!doctype html><html><head><meta charset="utf-8"><title>访问被拒绝</title></head>
<body><h1>Access Denied</h1><p>很抱歉，由于您访问的URL有可能对网站造成安全威胁，您的访问被阻断。</p></body></html>`;
