/**
 * The replica's chat page (doubao.com/chat/), with the DOM hooks drivers and
 * the public projects rely on (platforms.md §15): composer
 * `[data-testid="chat_input_input"]`, send and stop buttons, the 深度思考 /
 * 联网搜索 controls (`controls`: switches with role=switch and aria-checked;
 * or, as another build draws them, a 快速 / 专家 model picker with a menu
 * and a 联网搜索 skill button with aria-pressed; or none at all), answers
 * `[data-testid="receive_message"]` with `[data-testid="message_content"]`,
 * the `参考 N 篇资料` opener and its panel `[data-testid="search-reference-ui-v3"]`
 * of `[data-testid="search-text-item"]`, the action bar whose
 * `[data-testid="message_action_like"]` shows once an answer is done, the
 * follow-ups, and the login modal (扫码登录 with a QR code) a logged-out
 * visitor gets.
 */
import { PAGE_SCRIPT } from './page-script.js';

const STYLE = `
body{margin:0;font:14px/1.6 system-ui,"PingFang SC","Noto Sans CJK SC",sans-serif;color:#1f2329;background:#fff}
header{display:flex;justify-content:space-between;align-items:center;padding:10px 20px;border-bottom:1px solid #eee}
.brand{font-weight:600;font-size:16px}
main{display:flex;gap:16px;padding:16px 20px 160px}
[data-testid="message-list"]{flex:1;max-width:760px}
.message{margin:12px 0;padding:10px 14px;border-radius:12px}
.send{background:#e8f0ff;margin-left:auto;width:fit-content}
.md{white-space:pre-wrap}
.thinking{border-left:3px solid #ccc;padding-left:10px;color:#646a73;margin-bottom:8px}
.thinking-title{font-weight:600}
.entry-btn{display:inline-block;padding:2px 10px;border-radius:12px;background:#f2f3f5;cursor:pointer;margin-bottom:6px}
.video-card{display:inline-flex;gap:6px;align-items:center;margin:6px 6px 0 0;color:#1f2329}
.video-cover{width:64px;height:36px;background:#ddd}
.action-bar button{margin-right:6px}
.suggest{display:block;margin-top:6px;color:#3370ff;cursor:pointer}
aside{width:300px;border-left:1px solid #eee;padding-left:12px}
.search-item{margin-bottom:10px}
.search-item-footer{color:#8f959e;font-size:12px;display:flex;gap:6px;align-items:center}
.footer-icon{width:14px;height:14px}
#input-engine-container{position:fixed;left:0;right:0;bottom:0;padding:12px 20px;background:#fff;border-top:1px solid #eee}
textarea{width:100%;max-width:760px;height:56px;box-sizing:border-box}
.mode-switch[aria-checked="true"],.skill-btn[aria-pressed="true"]{background:#dbe6ff;color:#3370ff}
.model-menu{position:absolute;bottom:100%;background:#fff;border:1px solid #eee;border-radius:8px;padding:4px 0}
.model-menu[hidden]{display:none}
.model-menu [role="menuitem"]{padding:4px 16px;cursor:pointer}
.mode-bar{position:relative}
.overlay{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center}
.overlay[hidden]{display:none}
.dialog{background:#fff;border-radius:12px;padding:24px;width:360px;text-align:center}
.toast{position:fixed;top:20px;left:50%;transform:translateX(-50%);background:#333;color:#fff;padding:8px 16px;border-radius:8px}
`;

export interface PageOptions {
  loggedIn: boolean;
  /** The login QR code (a data: URL made with the qrcode package). */
  qrDataUrl: string;
  /** The token the QR code carries; the page polls until a phone confirms it. */
  qrToken: string;
  msToken: string;
  controls: Controls;
}

/** How the page draws its mode controls. */
export type Controls = 'switches' | 'picker' | 'none';

const MODE_BARS: Readonly<Record<Controls, string>> = {
  switches: `<div class="mode-bar">
    <button class="mode-switch" role="switch" aria-checked="false" data-testid="deep_think_button" data-mode-control="thinking">深度思考</button>
    <button class="mode-switch" role="switch" aria-checked="false" data-testid="web_search_button" data-mode-control="search">联网搜索</button>
  </div>`,
  picker: `<div class="mode-bar">
    <button class="x9f2k-model" aria-haspopup="menu" aria-expanded="false" data-model="fast">快速</button>
    <div class="model-menu" role="menu" hidden>
      <div role="menuitem" data-model="fast">快速<small>适用于大部分情况</small></div>
      <div role="menuitem" data-model="expert">专家<small>深度思考，解决难题</small></div>
    </div>
    <button class="skill-btn" aria-pressed="false" data-skill="web_search">联网搜索</button>
  </div>`,
  none: '',
};

export function chatPageHtml(o: PageOptions): string {
  const account = o.loggedIn
    ? `<div data-testid="chat_header_avatar_button" class="avatar" aria-label="账号">豆包用户</div>`
    : `<button data-testid="to_login_button">登录</button>`;
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>豆包 - 字节跳动旗下 AI 智能助手</title>
<style>${STYLE}</style>
</head>
<body>
<header><span class="brand">豆包</span><button class="new-chat" data-testid="create_conversation_button" data-new-chat>新对话</button>${account}</header>
<main>
  <div data-testid="message-list"></div>
  <aside data-testid="search-reference-ui-v3" hidden><div class="panel-title">参考资料</div><div class="panel-items"></div></aside>
</main>
<div id="input-engine-container">
  ${MODE_BARS[o.controls]}
  <textarea data-testid="chat_input_input" placeholder="发消息或输入 / 选择技能"></textarea>
  <button id="flow-end-msg-send" data-testid="chat_input_send_button" aria-label="发送">发送</button>
  <button data-testid="chat_input_stop_button" aria-label="停止生成" hidden>停止</button>
</div>
<div class="overlay" data-testid="login-modal" role="dialog" aria-label="登录" ${o.loggedIn ? 'hidden' : ''}>
  <div class="dialog">
    <div class="modal-title">扫码登录</div>
    <p class="modal-note">登录后体验完整功能</p>
    <img data-testid="login_qrcode" alt="登录二维码" width="180" height="180" src="${o.qrDataUrl}">
    <p>打开抖音或豆包 App 扫一扫</p>
    <div class="login-tabs"><span>手机号登录</span></div>
  </div>
</div>
<div class="overlay" data-testid="captcha-modal" role="dialog" aria-label="安全验证" hidden>
  <div class="dialog captcha-verify-container" id="captcha_container">
    <div class="modal-title">请完成下列验证后继续</div>
    <div class="captcha-slider">拖动滑块，使图片角度为正</div>
  </div>
</div>
<div class="toast" role="alert" data-testid="toast" hidden></div>
<script type="application/json" id="boot">${JSON.stringify({ msToken: o.msToken, loggedIn: o.loggedIn, qrToken: o.qrToken })}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
