/**
 * The replica's two pages, with DeepSeek's own DOM hooks (xln3/platform-v2
 * deepseek_adapter.py, live-calibrated 2026: `textarea#chat-input`,
 * `div.ds-toggle-button[aria-pressed]` chips 深度思考 / 智能搜索, the answer
 * in `div.ds-markdown.ds-assistant-message-main-content`, 开启新对话; the
 * sign-in page's 微信扫码登录 / 手机号登录 / 发送验证码). The send and stop
 * controls, the reasoning block and the sources panel use replica class
 * names of the same `ds-` family **[their real names unverified]**.
 */
import { CHAT_SCRIPT } from './chat-script.js';

const STYLE = `
  body { font-family: sans-serif; margin: 0; background: #fff; color: #222; }
  #root { display: flex; min-height: 100vh; }
  .ds-sidebar { width: 220px; background: #f5f6f8; padding: 16px; }
  .ds-new-chat { padding: 8px; border-radius: 8px; background: #dbeafe; cursor: pointer; }
  .ds-main { flex: 1; display: flex; flex-direction: column; padding: 16px 32px; max-width: 760px; }
  .ds-messages { flex: 1; }
  .ds-message--user { background: #eff6ff; padding: 8px 12px; border-radius: 12px; margin: 12px 0 12px auto; width: fit-content; }
  .ds-think { color: #555; border-left: 2px solid #ccc; padding-left: 10px; margin: 8px 0; white-space: pre-wrap; }
  .ds-search-summary { display: inline-block; background: #f1f5f9; padding: 4px 10px; border-radius: 12px; cursor: pointer; }
  .ds-markdown-cite { display: inline-block; background: #e5e7eb; border-radius: 8px; padding: 0 6px; font-size: 12px; margin-left: 2px; }
  .ds-composer { border: 1px solid #ddd; border-radius: 16px; padding: 12px; }
  #chat-input { width: 100%; min-height: 48px; border: 0; resize: none; font-size: 15px; }
  .ds-composer-tools { display: flex; gap: 8px; align-items: center; }
  .ds-toggle-button { border: 1px solid #ccc; border-radius: 14px; padding: 4px 12px; cursor: pointer; user-select: none; }
  .ds-toggle-button--selected { background: #dbeafe; border-color: #4d6bfe; color: #4d6bfe; }
  .ds-send-button, .ds-stop-button { margin-left: auto; width: 34px; height: 34px; border-radius: 50%; background: #4d6bfe; cursor: pointer; }
  .ds-stop-button { background: #111; }
  [hidden] { display: none !important; }
  .ds-sources-panel { width: 320px; border-left: 1px solid #eee; padding: 16px; }
  .ds-source-card { display: block; padding: 8px; margin: 6px 0; border-radius: 8px; background: #f8fafc; color: inherit; text-decoration: none; }
  .ds-source-site { font-size: 12px; color: #666; display: flex; gap: 6px; align-items: center; }
  .ds-source-icon { width: 16px; height: 16px; }
  .ds-source-title { display: block; font-weight: bold; }
  .ds-source-snippet { display: block; font-size: 12px; color: #555; }
  .ds-toast { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); background: #333; color: #fff; padding: 8px 16px; border-radius: 8px; }
  .ds-hcaptcha { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; }
  .ds-hcaptcha iframe { width: 320px; height: 420px; background: #fff; border: 0; }
  .ds-sign-in { max-width: 420px; margin: 60px auto; text-align: center; }
  .ds-sign-in img { width: 200px; height: 200px; }
`;

const page = (title: string, body: string) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style></head>
<body>${body}</body></html>`;

export function chatPage(): string {
  return page(
    'DeepSeek - 探索未至之境',
    `<div id="loading">加载中…</div>
<div id="root" hidden>
  <nav class="ds-sidebar"><div class="ds-new-chat" role="button" tabindex="0" data-new-chat>开启新对话</div>
    <div class="ds-user"><span class="ds-user-name"></span></div></nav>
  <main class="ds-main">
    <div class="ds-messages"></div>
    <div class="ds-composer">
      <textarea id="chat-input" placeholder="给 DeepSeek 发送消息"></textarea>
      <div class="ds-composer-tools">
        <div class="ds-toggle-button" role="button" tabindex="0" aria-pressed="false" data-mode-control="thinking"><span>深度思考</span></div>
        <div class="ds-toggle-button" role="button" tabindex="0" aria-pressed="false" data-mode-control="search"><span>智能搜索</span></div>
        <div class="ds-send-button" role="button" tabindex="0" aria-label="发送" aria-disabled="true"></div>
        <div class="ds-stop-button" role="button" tabindex="0" aria-label="停止生成" hidden></div>
      </div>
    </div>
  </main>
  <aside class="ds-sources-panel" hidden>
    <div class="ds-sources-head">搜索结果 <span class="ds-sources-close" role="button">×</span></div>
    <div class="ds-sources-list"></div>
  </aside>
</div>
<div class="ds-toast" role="alert" hidden></div>
<div class="ds-hcaptcha" hidden><iframe title="hCaptcha 人机验证" src="/__replica/hcaptcha"></iframe></div>
<script>${CHAT_SCRIPT}</script>`,
  );
}

/** The sign-in page: a WeChat QR code (polled until scanned) and the phone form. */
export function signInPage(qrDataUrl: string, ticket: string): string {
  return page(
    'DeepSeek - 登录',
    `<div class="ds-sign-in">
  <h1>DeepSeek</h1>
  <div class="ds-sign-in-qr"><img class="ds-qr" alt="微信扫码登录" src="${qrDataUrl}"><p>微信扫码登录</p></div>
  <form class="ds-sign-in-phone" onsubmit="return false">
    <div class="ds-tabs"><span>手机号登录</span> <span>密码登录</span></div>
    <input name="phone" placeholder="请输入手机号"> <button type="button">发送验证码</button>
    <input name="code" placeholder="请输入验证码">
    <button type="submit" class="ds-sign-in-button">登录</button>
  </form>
</div>
<script>
(function(){
  var ticket = ${JSON.stringify(ticket)};
  function poll(){
    fetch('/api/v0/users/qr_login/status?ticket=' + encodeURIComponent(ticket)).then(function(r){ return r.json(); })
      .then(function(b){
        var d = b.data && b.data.biz_data;
        if (d && d.status === 'confirmed') {
          localStorage.setItem('userToken', JSON.stringify({ value: d.user_token, __version: '0' }));
          location.replace('/');
        } else setTimeout(poll, 400);
      }, function(){ setTimeout(poll, 1000); });
  }
  poll();
})();
</script>`,
  );
}

export const HCAPTCHA_PAGE = page(
  'hCaptcha',
  '<div class="h-captcha"><p>请完成安全验证</p><p>选择所有包含交通信号灯的图片</p></div>',
);
