/**
 * The replica's pages as Gemini's might be drawn: the app (`/app`) with its
 * `WIZ_global_data` (the `SNlM0e` token, the build label `cfb2h`, the
 * session id `FdrFJe`; absent when signed out), a contenteditable composer
 * in `rich-textarea`, the Tools menu (Google Search), the model picker
 * (Fast / Thinking), Send message / Stop response, New chat (marked
 * `data-new-chat`), the answers as `model-response` with `model-thoughts`,
 * `message-content` and `sources-list`; Google's sign-in page; Google's
 * "unusual traffic" page. The element names follow the public scripts
 * (../shared/platforms.md §15); the rest is **[inferred]**.
 */
import { PAGE_SCRIPT } from './page-script.js';

const STYLE = `
  body { font-family: sans-serif; margin: 0; color: #1f1f1f; }
  .layout { display: flex; min-height: 100vh; }
  .side-nav { width: 72px; background: #f0f4f9; padding: 12px; }
  .new-chat { width: 40px; height: 40px; border-radius: 20px; border: 0; background: #dde3ea; cursor: pointer; }
  .main-col { flex: 1; display: flex; flex-direction: column; padding: 16px 32px; max-width: 860px; }
  .top-bar { display: flex; justify-content: flex-end; min-height: 36px; }
  .sign-in-button { padding: 8px 20px; border-radius: 18px; background: #0b57d0; color: #fff; text-decoration: none; }
  .chat-list { flex: 1; }
  .user-query { display: block; background: #e9eef6; padding: 8px 12px; border-radius: 16px; margin: 12px 0 12px auto; width: fit-content; }
  model-response { display: block; margin: 12px 0; }
  model-thoughts { display: block; color: #444; border-left: 2px solid #c4c7c5; padding-left: 10px; margin-bottom: 8px; }
  .thoughts-body { white-space: pre-wrap; }
  message-content { display: block; }
  .markdown { white-space: pre-wrap; }
  .citation-chip { background: #e3e3e3; border-radius: 8px; padding: 0 5px; font-size: 11px; }
  sources-list { display: block; margin-top: 8px; }
  .source-card { display: flex; gap: 6px; align-items: center; padding: 6px; margin: 4px 0; border-radius: 8px; background: #f0f4f9; }
  .favicon { width: 16px; height: 16px; }
  .input-area { border: 1px solid #c4c7c5; border-radius: 24px; padding: 12px 16px; }
  .ql-editor { min-height: 48px; outline: none; }
  .tool-row { display: flex; gap: 8px; align-items: center; }
  .menu-anchor { position: relative; }
  .toolbox-drawer-button, .model-picker { border: 1px solid #c4c7c5; border-radius: 16px; padding: 4px 12px; cursor: pointer; background: #fff; }
  .tools-menu, .model-menu { position: absolute; bottom: 32px; background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 4px; }
  .tools-menu [role^="menuitem"], .model-menu [role^="menuitem"] { display: block; padding: 6px 12px; border: 0; background: none; cursor: pointer; white-space: nowrap; }
  .send-button, .stop-button { margin-left: auto; width: 36px; height: 36px; border-radius: 50%; border: 0; background: #0b57d0; color: #fff; cursor: pointer; }
  [hidden] { display: none !important; }
  .dialog-mask { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; }
  .dialog-body { background: #fff; border-radius: 12px; padding: 24px; max-width: 480px; }
  .toast { position: fixed; bottom: 16px; left: 50%; transform: translateX(-50%); background: #333; color: #fff; padding: 8px 16px; border-radius: 8px; }
`;

/** The session the app page carries, or none when signed out. */
export interface Wiz {
  SNlM0e: string;
  cfb2h: string;
  FdrFJe: string;
  W3Yyqf: string;
}

export function appPage(wiz: Wiz | undefined): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gemini</title><style>${STYLE}</style>
<script>window.WIZ_global_data = ${JSON.stringify(wiz ?? { cfb2h: 'boq_assistant-bard-web-server_20261201.00_p0' })};</script></head>
<body>
<div class="layout">
  <nav class="side-nav"><button type="button" class="new-chat" aria-label="New chat" data-r="new-chat" data-new-chat>+</button></nav>
  <main class="main-col">
    <header class="top-bar" data-r="header"></header>
    <div class="chat-list" data-r="list"></div>
    <div class="input-area">
      <rich-textarea><div class="ql-editor textarea" contenteditable="true" role="textbox" aria-multiline="true" aria-label="Enter a prompt here" data-r="editor"></div></rich-textarea>
      <div class="tool-row" data-r="tools"></div>
    </div>
  </main>
</div>
<div class="dialog-mask" role="dialog" aria-modal="true" aria-label="Unusual traffic" data-r="sorry" hidden><div class="dialog-body">
  <p>Our systems have detected unusual traffic from your computer network.</p><p>I'm not a robot</p></div></div>
<div class="toast" role="alert" data-r="toast" hidden></div>
<script>${PAGE_SCRIPT}</script>
</body></html>`;
}

/** Google's sign-in page, as a signed-out visitor is sent to it. */
export function signInPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in - Google Accounts</title></head>
<body><main><h1>Sign in</h1><p>Use your Google Account</p><p>to continue to Gemini</p>
<form><input type="email" aria-label="Email or phone" placeholder="Email or phone"><button type="button">Next</button></form>
</main></body></html>`;
}

/** Google's "unusual traffic" page (`/sorry/index`), as the chat call answers it. */
export function sorryPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>https://gemini.google.com/sorry/index</title></head>
<body><div>Our systems have detected unusual traffic from your computer network. This page checks to see if it's really you sending the requests, and not a robot.</div>
<div class="g-recaptcha">I'm not a robot</div></body></html>`;
}
