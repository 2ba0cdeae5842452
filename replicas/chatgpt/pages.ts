/**
 * The replica's chat page as chatgpt.com's is drawn (../shared/web-channel.md
 * "ChatGPT, 2025–2026"): the ProseMirror composer `#prompt-textarea`
 * (contenteditable), the Think longer and Web search pills (pressed
 * buttons; the real page also offers them in its "+" menu), the model
 * picker in the header (ChatGPT 5, a menu), the send and stop controls,
 * turns marked `data-message-author-role` with the answer's `.markdown`,
 * the thoughts above it, the Sources button that opens the sources panel,
 * the New chat link (marked `data-new-chat`), a logged-out page's Log in /
 * Sign up buttons with its login dialog, and Cloudflare's Turnstile dialog.
 * The pills' names and the panel's are the replica's own **[inferred]**.
 */
import { PAGE_SCRIPT } from './page-script.js';

const STYLE = `
  body { font-family: sans-serif; margin: 0; color: #0d0d0d; }
  .layout { display: flex; min-height: 100vh; }
  .sidebar { width: 220px; background: #f9f9f9; padding: 12px; }
  .new-chat-link { display: block; padding: 8px; border-radius: 8px; color: inherit; text-decoration: none; }
  .main-col { flex: 1; display: flex; flex-direction: column; padding: 16px 32px; max-width: 820px; }
  .page-header { display: flex; justify-content: space-between; align-items: center; }
  .btn-login, .btn-signup { padding: 6px 14px; border-radius: 18px; border: 1px solid #ddd; margin-left: 6px; }
  .btn-login { background: #0d0d0d; color: #fff; }
  .thread { flex: 1; }
  .user-turn { background: #f4f4f4; padding: 8px 14px; border-radius: 18px; margin: 12px 0 12px auto; width: fit-content; }
  .thoughts { color: #5d5d5d; white-space: pre-wrap; }
  .sources-btn { border: 1px solid #ddd; border-radius: 14px; padding: 3px 10px; background: #fff; cursor: pointer; }
  .citation-pill { background: #ececec; border-radius: 8px; padding: 0 5px; font-size: 11px; }
  .composer { border: 1px solid #ddd; border-radius: 24px; padding: 12px; }
  .ProseMirror { min-height: 44px; outline: none; }
  .composer-row { display: flex; gap: 8px; align-items: center; }
  .composer-pill, .model-switcher { border: 1px solid #ccc; border-radius: 14px; padding: 4px 12px; cursor: pointer; background: #fff; }
  .composer-pill[aria-pressed="true"] { background: #e8f0ff; border-color: #2f6feb; color: #2f6feb; }
  .model-menu { position: absolute; background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 4px; }
  .model-menu [role^="menuitem"] { display: block; padding: 6px 12px; cursor: pointer; }
  .composer-submit, .composer-stop { margin-left: auto; width: 36px; height: 36px; border-radius: 50%; border: 0; background: #0d0d0d; color: #fff; cursor: pointer; }
  [hidden] { display: none !important; }
  .sources-panel { width: 320px; border-left: 1px solid #eee; padding: 16px; }
  .source-card { display: block; padding: 8px; margin: 6px 0; border-radius: 8px; background: #f8fafc; }
  .modal-mask { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; }
  .modal-body { background: #fff; border-radius: 12px; padding: 24px; text-align: center; }
  .toast-msg { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); background: #ef4444; color: #fff; padding: 8px 16px; border-radius: 8px; }
`;

/** How the page draws its mode controls: pills, or the "+" tools menu whose choices show as pills. */
export type Widgets = 'pills' | 'tools_menu';

export function chatPage(widgets: Widgets = 'pills'): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ChatGPT</title><style>${STYLE}</style></head>
<body data-widgets="${widgets}">
<div class="layout">
  <nav class="sidebar"><a class="new-chat-link" href="/" aria-label="New chat" data-testid="create-new-chat-button" data-r="new-chat" data-new-chat>New chat</a></nav>
  <main class="main-col">
    <header class="page-header"><span style="position:relative" data-r="model"></span><span data-r="header"></span></header>
    <div class="loading-tip" data-r="loading">Loading…</div>
    <div class="thread" data-r="thread"></div>
    <form class="composer" data-r="composer" hidden onsubmit="return false">
      <div id="prompt-textarea" class="ProseMirror" contenteditable="true" role="textbox" aria-label="Message ChatGPT" data-r="editor"></div>
      <div class="composer-row" data-r="tools"></div>
    </form>
  </main>
  <aside class="sources-panel" role="complementary" aria-label="Sources" data-testid="sources-panel" data-r="sources" hidden></aside>
</div>
<div class="modal-mask" role="dialog" aria-modal="true" aria-label="Log in" data-r="login" hidden><div class="modal-body">
  <h2>Log in or sign up</h2><p>You'll get smarter responses and can upload files, images, and more.</p>
  <input type="email" aria-label="Email address" placeholder="Email address"><button type="button">Continue</button></div></div>
<div class="modal-mask" role="dialog" aria-modal="true" aria-label="Verification" data-r="challenge" hidden><div class="modal-body">
  <h2>Verify you are human</h2><p>chatgpt.com needs to review the security of your connection before proceeding.</p>
  <iframe title="Widget containing a Cloudflare security challenge" src="about:blank" width="300" height="65"></iframe></div></div>
<div class="toast-msg" role="alert" data-r="toast" hidden></div>
<script>${PAGE_SCRIPT}</script>
</body></html>`;
}

/** Cloudflare's interstitial, as it answers a request it challenges (HTTP 403). */
export const CHALLENGE_PAGE = `<!doctype html>
<html lang="en-US"><head><title>Just a moment...</title><meta charset="UTF-8"></head>
<body><div class="main-wrapper" role="main"><div class="main-content">
<h1>chatgpt.com</h1><h2>Verify you are human by completing the action below.</h2>
<div id="cf-turnstile-wrapper"><script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async></script></div>
<noscript>Enable JavaScript and cookies to continue</noscript>
<script>window._cf_chl_opt = { cType: 'managed' };</script></div></div></body></html>`;
