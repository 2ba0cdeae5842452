/**
 * The sandbox's consumer chat site: one self-contained page (HTML + CSS + JS,
 * no external resources) and a login wall.
 *
 * DOM contract the web driver relies on:
 * - `body[data-state]`: `idle` → `streaming` → `done` | `error` | `login`;
 *   `body[data-turn]` counts sends. On `error`: `body[data-error-status]`
 *   (HTTP status, 0 for a broken stream), `[data-retry-after]`, `[data-error]`.
 * - `#prompt` textarea, `#toggle-reasoning` / `#toggle-search` checkboxes, `#send`.
 * - `#answer[data-markdown]` (the exact Markdown; the element shows it rendered).
 * - `#reasoning` (hidden when absent) with `.reasoning-summary` and
 *   `.reasoning-content[data-raw]`.
 * - `#references li[data-index][data-cited]` with `a.ref-title[href]`,
 *   `.ref-site`, `.ref-icon[data-icon]`.
 * - `#related li` (one question each), `#media img[src][alt]`.
 */
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

const LOGIN_BODY = String.raw`<div class="login" id="login-wall">
  <h1>Welcome back</h1>
  <p>Your session has expired. Log in to continue chatting with Sandbox.</p>
  <form id="login-form" method="post" action="/login" onsubmit="return false">
    <label for="login-email">Email</label>
    <input id="login-email" name="email" type="email" autocomplete="username" placeholder="you@example.com">
    <label for="login-password">Password</label>
    <input id="login-password" name="password" type="password" autocomplete="current-password" placeholder="••••••••">
    <button type="submit">Log in</button>
  </form>
</div>`;

function shell(title: string, state: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${PAGE_STYLE}</style>
</head>
<body data-state="${state}" data-turn="0">
${bodyHtml}
</body>
</html>
`;
}

export function chatPageHtml(): string {
  return shell(
    'Sandbox Chat',
    'idle',
    `<aside>
  <div class="logo"><i></i>Sandbox</div>
  <button class="new" type="button">+ New chat</button>
  <div class="hist active">Current conversation</div>
  <div class="hist">Best project tools 2025</div>
  <div class="hist">对比几款笔记软件</div>
  <div class="foot">Simulated platform · answers are generated locally</div>
</aside>
<main>
  <header><span class="model">Sandbox 1.0</span><span class="badge">simulated</span></header>
  <section id="conversation">
    <div class="thread">
      <div class="empty" id="empty"><h1>What can I help with?</h1><div>Ask anything. Turn on Deep think or Web search for more.</div></div>
      <div class="msg user" id="user-msg" hidden></div>
      <div class="msg assistant" id="assistant-msg" hidden>
        <div class="avatar"></div>
        <div class="bubble">
          <details id="reasoning" open hidden><summary>Thought process<span class="reasoning-summary"></span></summary><div class="reasoning-content" data-raw=""></div></details>
          <div id="answer" class="markdown" data-markdown=""></div>
          <div id="error" role="alert" hidden></div>
          <section id="references" hidden><div class="section-title">Sources</div><ol></ol></section>
          <section id="media-wrap"><div id="media" hidden></div></section>
          <section id="related" hidden><div class="section-title">Related</div><ul></ul></section>
        </div>
      </div>
    </div>
  </section>
  <div class="composer">
    <div class="box">
      <textarea id="prompt" rows="2" placeholder="Message Sandbox…" aria-label="Prompt"></textarea>
      <div class="tools">
        <label class="toggle"><input type="checkbox" id="toggle-reasoning"> Deep think</label>
        <label class="toggle"><input type="checkbox" id="toggle-search"> Web search</label>
        <button id="send" type="button">Send</button>
      </div>
    </div>
    <div class="hint">Sandbox can make mistakes. It is a local simulation.</div>
  </div>
</main>
<template id="login-template">${LOGIN_BODY}</template>
<script>${PAGE_SCRIPT}</script>`,
  );
}

export function loginPageHtml(): string {
  return shell('Log in · Sandbox', 'login', LOGIN_BODY);
}
