/**
 * The chat page's own script (plain browser JavaScript, served as
 * /static/chat.js): it keeps the session token, signs each chat call, calls
 * the real endpoint in the real wire format (Connect envelopes; the older
 * build's SSE endpoint for prompts marked `#replica:old_format`) and renders
 * the answer into Kimi's DOM as it streams.
 */
export const CHAT_SCRIPT = String.raw`(() => {
  const $ = (s, r) => (r || document).querySelector(s);
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const mode = { thinking: false, search: false };
  const hex = (buf) => Array.from(new Uint8Array(buf)).map((b) => b.toString(16).padStart(2, '0')).join('');
  const claimsOf = (t) => JSON.parse(decodeURIComponent(escape(atob(t.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')))));

  async function accessToken() {
    let t = localStorage.getItem('access_token');
    if (!t) {
      const r = await fetch('/api/auth/token');
      if (r.ok) { t = (await r.json()).access_token; localStorage.setItem('access_token', t); }
    }
    return t;
  }

  async function signed(token, body) {
    const c = claimsOf(token);
    const ts = String(Date.now());
    const bodyHash = hex(await crypto.subtle.digest('SHA-256', body));
    const key = await crypto.subtle.importKey('raw', enc.encode(c.ssid), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const sig = hex(await crypto.subtle.sign('HMAC', key, enc.encode(c.device_id + '\n' + ts + '\n' + bodyHash)));
    return {
      authorization: 'Bearer ' + token,
      'x-msh-device-id': c.device_id,
      'x-msh-session-id': c.ssid,
      'x-msh-platform': 'web',
      'x-msh-timestamp': ts,
      'x-msh-signature': sig,
    };
  }

  for (const button of document.querySelectorAll('.toolkit-item[data-mode]')) {
    button.addEventListener('click', () => {
      const on = button.getAttribute('aria-checked') !== 'true';
      button.setAttribute('aria-checked', String(on));
      button.classList.toggle('active', on);
      mode[button.dataset.mode] = on;
    });
  }

  // The page's mode, for the mode drifts that redraw its controls (replicas/common/mode-drift.ts).
  window.__replicaModes = {
    labels: { thinking: '长思考', search: '联网搜索' },
    models: ['Kimi', '长思考 (k1.5)'],
    get: () => ({ thinking: mode.thinking, search: mode.search }),
    set(name, on) {
      const button = $('[data-mode-control="' + name + '"]');
      if (button && mode[name] !== on) button.click();
    },
    account: () => localStorage.getItem('access_token') ? claimsOf(localStorage.getItem('access_token')).sub || '' : '',
  };

  // A button that opens a popup (the model menu, the tools popover) and shows it open.
  const opens = (button, popup) => {
    const show = (open) => { popup.hidden = !open; button.setAttribute('aria-expanded', String(open)); };
    button.addEventListener('click', () => show(popup.hidden));
    return show;
  };
  const picker = $('[aria-haspopup="menu"]');
  if (picker) {
    const menu = $('.model-menu');
    const show = opens(picker, menu);
    for (const item of menu.querySelectorAll('[role="menuitem"]')) {
      item.addEventListener('click', () => {
        mode.thinking = item.dataset.thinking === 'true';
        picker.textContent = item.textContent;
        show(false);
      });
    }
  }
  const tools = $('[aria-haspopup="dialog"]');
  if (tools) opens(tools, $('.tools-popover'));

  const list = $('.chat-content-list');
  const send = $('[data-testid="msh-chatinput-send-button"]');
  const editor = $('[data-testid="msh-chatinput-editor"]');

  function toast(text) {
    const t = document.createElement('div');
    t.className = 'toast toast-error';
    t.textContent = text;
    document.body.appendChild(t);
  }

  function newSegment(prompt) {
    const user = document.createElement('div');
    user.className = 'segment segment-user';
    user.innerHTML = '<div class="segment-content"><div class="user-content"></div></div>';
    $('.user-content', user).textContent = prompt;
    const a = document.createElement('div');
    a.className = 'segment segment-assistant';
    a.innerHTML =
      '<div class="segment-content">' +
      '<div class="thinking-container" hidden><div class="thinking-title">思考过程</div><div class="thinking-content markdown"></div></div>' +
      '<div class="segment-container"><div class="markdown-container"><div class="markdown"></div></div></div>' +
      '<div class="segment-notice" hidden></div>' +
      '<button class="site-card-button" type="button" hidden></button>' +
      '<div class="segment-suggestions" hidden></div>' +
      '</div>';
    list.append(user, a);
    return { el: a, think: '', text: '', results: [], suggestions: [] };
  }

  function render(seg) {
    const think = $('.thinking-container', seg.el);
    think.hidden = seg.think === '';
    $('.thinking-content', think).textContent = seg.think;
    const md = $('.markdown-container .markdown', seg.el);
    md.replaceChildren(...seg.text.split(/\n{2,}/).filter((p) => p !== '').map((p) => {
      const d = document.createElement('div');
      d.className = 'paragraph';
      d.textContent = p;
      return d;
    }));
  }

  function finishRender(seg) {
    render(seg);
    const card = $('.site-card-button', seg.el);
    if (seg.results.length > 0) {
      card.hidden = false;
      card.textContent = seg.results.length + ' 个网页';
      card.onclick = () => openSources(seg.results);
    }
    const sugg = $('.segment-suggestions', seg.el);
    sugg.hidden = seg.suggestions.length === 0;
    sugg.replaceChildren(...seg.suggestions.map((q) => {
      const d = document.createElement('div');
      d.className = 'suggestion-item';
      d.textContent = q;
      return d;
    }));
  }

  function openSources(results) {
    const panel = $('.sources-panel');
    panel.hidden = false;
    panel.setAttribute('aria-hidden', 'false');
    $('.sources-list', panel).replaceChildren(...results.map((r, i) => {
      const item = document.createElement('div');
      item.className = 'source-item';
      item.dataset.index = String(i + 1);
      item.innerHTML = '<img class="source-icon" alt=""><span class="source-site-name"></span><a class="source-title" target="_blank"></a>';
      $('.source-icon', item).src = r.icon;
      $('.source-site-name', item).textContent = r.siteName;
      const a = $('.source-title', item);
      a.href = r.url;
      a.textContent = r.title;
      return item;
    }));
  }

  function showLogin() { $('.login-modal').hidden = false; }
  function showCaptcha(text) {
    const o = $('.captcha-overlay');
    o.hidden = false;
    $('.captcha-tip', o).textContent = text;
  }

  function onEndError(error) {
    if (error.code === 'unauthenticated') { localStorage.removeItem('access_token'); showLogin(); }
    else if (error.code === 'permission_denied') showCaptcha(error.message);
    else toast(error.message || error.code);
  }

  function onMessage(seg, m) {
    if (m.done || m.heartbeat) return;
    const b = m.block || {};
    if (m.mask === 'block.think' || m.mask === 'block.think.content') {
      seg.think = m.op === 'set' ? (b.think && b.think.content) || '' : seg.think + ((b.think && b.think.content) || '');
    } else if (m.mask === 'block.text' || m.mask === 'block.text.content') {
      const piece = (b.text && (b.text.content || b.text.value || b.text.markdown)) || '';
      seg.text = m.op === 'set' ? piece : seg.text + piece;
    } else if (m.mask === 'block.markdown') {
      seg.text += (b.markdown && b.markdown.content) || '';
    } else if (m.mask === 'block.search') {
      seg.results = (b.search && b.search.results) || [];
    } else if (m.mask === 'message.suggestions') {
      seg.suggestions = m.message.suggestions || [];
    } else if (m.mask === 'message.status' && m.message.status === 'MESSAGE_STATUS_BLOCKED') {
      const n = $('.segment-notice', seg.el);
      n.hidden = false;
      n.textContent = m.message.notice;
    }
    render(seg);
  }

  async function askConnect(seg, prompt, token) {
    const req = {
      scenario: 'SCENARIO_K2D5',
      tools: mode.search ? [{ type: 'TOOL_TYPE_SEARCH', search: {} }] : [],
      message: { role: 'user', blocks: [{ message_id: '', text: { content: prompt } }], scenario: 'SCENARIO_K2D5' },
      options: { thinking: mode.thinking },
    };
    const json = enc.encode(JSON.stringify(req));
    const body = new Uint8Array(5 + json.length);
    new DataView(body.buffer).setUint32(1, json.length);
    body.set(json, 5);
    const res = await fetch('/apiv2/kimi.gateway.chat.v1.ChatService/Chat', {
      method: 'POST',
      headers: { 'content-type': 'application/connect+json', 'connect-protocol-version': '1', ...(await signed(token, body)) },
      body,
    });
    if (res.status === 401 || res.status === 403) return showLogin();
    if (!res.ok) return toast('请求失败 ' + res.status);
    const reader = res.body.getReader();
    let buf = new Uint8Array(0);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const joined = new Uint8Array(buf.length + value.length);
      joined.set(buf);
      joined.set(value, buf.length);
      buf = joined;
      while (buf.length >= 5) {
        const len = new DataView(buf.buffer, buf.byteOffset).getUint32(1);
        if (buf.length < 5 + len) break;
        const flags = buf[0];
        const msg = JSON.parse(dec.decode(buf.subarray(5, 5 + len)));
        buf = buf.slice(5 + len);
        if (flags & 2) { if (msg.error) onEndError(msg.error); }
        else onMessage(seg, msg);
      }
    }
  }

  async function askLegacy(seg, prompt, token) {
    const auth = { authorization: 'Bearer ' + token, 'content-type': 'application/json' };
    const chat = await fetch('/api/chat', { method: 'POST', headers: auth, body: JSON.stringify({ name: '未命名会话', is_example: false, kimiplus_id: 'kimi', source: 'web', tags: [] }) });
    if (chat.status === 401) return showLogin();
    const { id } = await chat.json();
    const body = enc.encode(JSON.stringify({
      messages: [{ role: 'user', content: prompt }],
      refs: [],
      use_search: mode.search,
      kimiplus_id: 'kimi',
      model: mode.thinking ? 'k1.5' : 'kimi',
      extend: { sidebar: true },
    }));
    const res = await fetch('/api/chat/' + id + '/completion/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await signed(token, body)) },
      body,
    });
    if (res.status === 401 || res.status === 403) return showLogin();
    if (!res.ok) return toast('请求失败 ' + res.status);
    const reader = res.body.getReader();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
      let at;
      while ((at = text.indexOf('\n\n')) >= 0) {
        const line = text.slice(0, at).split('\n').find((l) => l.startsWith('data: '));
        text = text.slice(at + 2);
        if (!line) continue;
        const e = JSON.parse(line.slice(6));
        if (e.event === 'cmpl') seg.text += e.text;
        else if (e.event === 'search_plus' && e.msg.type === 'get_res') seg.results.push({ title: e.msg.title, url: e.msg.url, siteName: e.msg.site_name, icon: e.msg.icon });
        else if (e.event === 'error') toast(e.message || '内容由于不合规被停止生成');
        render(seg);
      }
    }
  }

  async function ask() {
    const prompt = editor.textContent.trim();
    if (!prompt || send.classList.contains('stop')) return;
    editor.textContent = '';
    const seg = newSegment(prompt);
    send.classList.add('stop');
    send.setAttribute('aria-label', '停止生成');
    document.body.dataset.streaming = 'true';
    try {
      const token = await accessToken();
      if (!token) return showLogin();
      if (prompt.includes('#replica:old_format')) await askLegacy(seg, prompt, token);
      else await askConnect(seg, prompt, token);
    } catch (err) {
      toast(String(err));
    } finally {
      finishRender(seg);
      send.classList.remove('stop');
      send.setAttribute('aria-label', '发送');
      delete document.body.dataset.streaming;
    }
  }

  send.addEventListener('click', ask);
  // The app's router: a new chat without loading the page again.
  const newChat = $('[data-new-chat]');
  if (newChat) newChat.addEventListener('click', (e) => {
    e.preventDefault();
    if (send.classList.contains('stop')) return;
    list.textContent = '';
    const sources = $('.sources-panel');
    sources.hidden = true;
    sources.setAttribute('aria-hidden', 'true');
    history.pushState(null, '', '/');
  });
  editor.addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); ask(); } });
})();`;

/** The logged-out page's script: polls the QR code's state, then keeps the session. */
export const LOGIN_SCRIPT = String.raw`(() => {
  const qr = document.querySelector('.login-modal').dataset.qrId;
  const poll = async () => {
    const r = await fetch('/api/auth/qr/' + qr + '/status');
    const s = await r.json();
    if (s.status === 'CONFIRMED') {
      localStorage.setItem('access_token', s.access_token);
      location.reload();
      return;
    }
    setTimeout(poll, 500);
  };
  setTimeout(poll, 500);
})();`;
