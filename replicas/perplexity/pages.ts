/**
 * The replica's page as Perplexity's is drawn: the composer
 * (`#ask-input`), the model picker and the sources menu beside it, the
 * Submit and Stop controls, the New Thread control (marked
 * `data-new-chat`), answers in `#markdown-content-N` with their plan steps
 * and N sources opener, the sources panel, the sign-in dialog (Sign in or
 * create an account, Continue with Google / with email) and the Cloudflare
 * challenge a blocked call brings. Hooks beyond the composer and the
 * answer's id are the replica's own **[inferred]**.
 */
import { PAGE_SCRIPT } from './page-script.js';

const STYLE = `
  body { margin: 0; font-family: system-ui, sans-serif; color: #13343b; background: #fcfcf9; }
  .layout { display: flex; min-height: 100vh; }
  .side { width: 64px; background: #f3f3ee; padding: 12px; }
  .new-thread { width: 36px; height: 36px; border-radius: 18px; border: 1px solid #ccc; background: #fff; cursor: pointer; }
  .main { flex: 1; display: flex; flex-direction: column; padding: 16px 32px; max-width: 820px; }
  .top { display: flex; justify-content: flex-end; }
  .login { padding: 6px 16px; border-radius: 16px; border: 0; background: #20808d; color: #fff; }
  .list { flex: 1; }
  .query { font-size: 22px; }
  .steps { color: #64645e; font-size: 13px; }
  .sources-opener { border: 1px solid #ddd; border-radius: 12px; background: #fff; padding: 4px 10px; cursor: pointer; }
  .citation { background: #e8e8e3; border-radius: 6px; padding: 0 4px; font-size: 11px; }
  .input-box { border: 1px solid #ddd; border-radius: 16px; padding: 12px; background: #fff; }
  .input-box textarea { width: 100%; min-height: 48px; border: 0; outline: none; resize: none; font: inherit; }
  .tools { display: flex; gap: 8px; align-items: center; }
  .pick { position: relative; }
  .pill { border: 1px solid #ccc; border-radius: 14px; padding: 4px 12px; cursor: pointer; background: #fff; }
  .menu { position: absolute; top: 30px; left: 0; z-index: 5; background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 4px; min-width: 220px; }
  .menu [role^="menuitem"] { display: block; width: 100%; text-align: left; border: 0; background: none; padding: 6px 12px; cursor: pointer; white-space: nowrap; }
  .menu .row { display: flex; justify-content: space-between; align-items: center; padding: 6px 12px; }
  [role="switch"] { width: 30px; height: 18px; border-radius: 9px; border: 0; background: #ccc; cursor: pointer; }
  [role="switch"][aria-checked="true"] { background: #20808d; }
  .submit { margin-left: auto; width: 34px; height: 34px; border-radius: 50%; border: 0; background: #20808d; color: #fff; cursor: pointer; }
  .stop { background: #13343b; }
  [hidden] { display: none !important; }
  .refs { width: 320px; border-left: 1px solid #eee; padding: 16px; }
  .source { display: block; padding: 8px; margin: 6px 0; border-radius: 8px; background: #f3f3ee; }
  .modal { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; }
  .modal-body { background: #fff; border-radius: 12px; padding: 24px; text-align: center; }
  .toast { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); background: #13343b; color: #fff; padding: 8px 16px; border-radius: 8px; }
`;

export function chatPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Perplexity</title><style>${STYLE}</style></head>
<body>
<div class="layout">
  <nav class="side"><button type="button" class="new-thread" aria-label="New Thread" data-r="new-chat" data-new-chat>+</button></nav>
  <main class="main">
    <header class="top" data-r="header"></header>
    <div data-r="loading">Loading…</div>
    <div class="list" data-r="list"></div>
    <div class="input-box" data-r="input-box" hidden>
      <textarea id="ask-input" aria-label="Ask anything" placeholder="Ask anything…" data-r="editor"></textarea>
      <div class="tools" data-r="tools"></div>
    </div>
  </main>
  <aside class="refs" role="complementary" aria-label="Sources" data-r="refs" hidden></aside>
</div>
<div class="modal" role="dialog" aria-modal="true" aria-label="Sign in" data-r="login" hidden><div class="modal-body">
  <h2>Sign in or create an account</h2><button type="button">Continue with Google</button>
  <input aria-label="Email" placeholder="Enter your email"><button type="button">Continue with email</button></div></div>
<div class="modal" role="dialog" aria-modal="true" aria-label="Security check" data-r="challenge" hidden><div class="modal-body">
  <h2>Verify you are human</h2><p>www.perplexity.ai needs to review the security of your connection before proceeding.</p>
  <iframe title="Cloudflare challenge" src="about:blank" width="300" height="65"></iframe></div></div>
<div class="toast" role="alert" data-r="toast" hidden></div>
<script>${PAGE_SCRIPT}</script>
</body></html>`;
}
