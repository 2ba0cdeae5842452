/**
 * The replica's HTML: Kimi's chat page with the DOM hooks scrapers use
 * (platforms.md §15: `msh-chatinput-editor` / `msh-chatinput-send-button`
 * test ids, `.segment-container` / `.paragraph` answer text), the 长思考 and
 * 联网搜索 switches, the sources panel, and the login modal with its QR code.
 */
const STYLE = `
body { font-family: sans-serif; margin: 0; display: flex; min-height: 100vh; }
.sidebar { width: 200px; background: #f5f5f5; padding: 12px; }
.chat-page { flex: 1; padding: 16px; }
.chat-input-editor { border: 1px solid #ccc; min-height: 40px; padding: 8px; }
.toolkit-item[aria-checked="true"] { background: #d0e6ff; }
.model-menu[hidden], .tools-popover[hidden] { display: none; }
.send-button-container { display: inline-block; padding: 6px 12px; background: #333; color: #fff; cursor: pointer; }
.send-button-container.stop { background: #a33; }
.sources-panel { position: fixed; right: 0; top: 0; width: 320px; height: 100vh; background: #fff; border-left: 1px solid #ccc; overflow: auto; }
.login-modal, .captcha-overlay { position: fixed; inset: 0; background: rgba(0,0,0,.5); display: flex; align-items: center; justify-content: center; }
.login-modal[hidden], .captcha-overlay[hidden], .sources-panel[hidden] { display: none; }
.login-box, .captcha-box { background: #fff; padding: 24px; }
.source-icon { width: 16px; height: 16px; }
`;

function frame(title: string, body: string, script: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title>
<style>${STYLE}</style></head><body>${body}<script src="${script}"></script></body></html>`;
}

const loginModal = (qrId: string, qrDataUrl: string, hidden: boolean) => `
<div class="login-modal" data-qr-id="${qrId}"${hidden ? ' hidden' : ''}>
  <div class="login-box">
    <div class="login-title">登录 Kimi</div>
    <img class="qrcode" alt="微信扫码登录" src="${qrDataUrl}">
    <div class="login-tip">使用微信扫码登录</div>
    <button class="phone-login-button" type="button">手机号登录</button>
  </div>
</div>`;

/**
 * How the page draws its mode controls: the 长思考 and 联网搜索 switches, or a
 * later build's widgets (public captures): deep thinking as a model picker
 * (K2.5 快速 / K2.5 思考 in a menu), or web search inside the popover of a
 * 工具 (tools) button. Kimi's own DOM drifts, beside the common ones (drift.ts).
 */
export const KIMI_WIDGETS = ['switches', 'model_picker', 'tools_popover'] as const;
export type KimiWidgets = (typeof KIMI_WIDGETS)[number];

const THINKING_SWITCH = `<button class="toolkit-item" type="button" data-mode="thinking" data-mode-control="thinking" role="switch" aria-checked="false"><span>长思考</span></button>`;
const SEARCH_SWITCH = `<button class="toolkit-item" type="button" data-mode="search" data-mode-control="search" role="switch" aria-checked="false"><span>联网搜索</span></button>`;
const MODEL_PICKER = `<div class="model-picker"><button class="model-button" type="button" aria-haspopup="menu" aria-expanded="false">K2.5 快速</button>
  <div class="model-menu" role="menu" hidden><div role="menuitem" data-thinking="false">K2.5 快速</div><div role="menuitem" data-thinking="true">K2.5 思考</div></div></div>`;
const TOOLS_POPOVER = `<button class="tools-button" type="button" aria-haspopup="dialog" aria-expanded="false">工具</button>
  <div class="tools-popover" role="dialog" hidden>${SEARCH_SWITCH}</div>`;

const modeControls = (w: KimiWidgets) =>
  (w === 'model_picker' ? MODEL_PICKER : THINKING_SWITCH) +
  (w === 'tools_popover' ? TOOLS_POPOVER : SEARCH_SWITCH);

export function chatPage(user: string, widgets: KimiWidgets = 'switches'): string {
  return frame(
    'Kimi - 会推理解析，能深度思考的AI助手',
    `
<aside class="sidebar"><div class="user-info"><span class="user-name">${user}</span></div>
  <a class="new-chat-button" href="/" data-new-chat>新建会话</a></aside>
<main class="chat-page">
  <div class="chat-content-list"></div>
  <div class="chat-input">
    <div class="chat-input-editor" data-testid="msh-chatinput-editor" contenteditable="true" role="textbox"></div>
    <div class="chat-input-actions">
      ${modeControls(widgets)}
      <div class="send-button-container" data-testid="msh-chatinput-send-button" role="button" aria-label="发送">发送</div>
    </div>
  </div>
</main>
<div class="sources-panel side-console" aria-hidden="true" hidden>
  <div class="sources-header">搜索结果</div><div class="sources-list"></div>
</div>
<div class="captcha-overlay" hidden><div class="captcha-box">
  <div class="captcha-tip"></div><div class="slider-captcha"><div class="slider-handle"></div></div>
</div></div>
${loginModal('expired', '', true)}`,
    '/static/chat.js',
  );
}

export function loginPage(qrId: string, qrDataUrl: string): string {
  return frame(
    'Kimi - 登录',
    `
<aside class="sidebar"><button class="login-button" type="button">登录</button></aside>
<main class="chat-page"><div class="chat-input">
  <div class="chat-input-editor" data-testid="msh-chatinput-editor" contenteditable="true" role="textbox"></div>
</div></main>
${loginModal(qrId, qrDataUrl, false)}`,
    '/static/login.js',
  );
}

/** A site icon as the search results show it. */
export function iconSvg(name: string): string {
  const letter = name.slice(0, 1).toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#4a7"/><text x="4" y="12" font-size="10" fill="#fff">${letter}</text></svg>`;
}
