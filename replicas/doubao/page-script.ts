/**
 * The replica chat page's own script: the mode controls (switches, or the
 * model picker and the skill button), the composer, the
 * SharedWorker that performs the chat call (worker-script.ts), and the
 * rendering of the stream as it arrives (thinking, search results and the
 * 参考 N 篇资料 panel, text, video cards, follow-ups, the action bar once
 * done) and of the site's errors (login modal, slide captcha, rate toast).
 */
export const PAGE_SCRIPT = String.raw`(() => {
'use strict';
const $ = (s, root) => (root || document).querySelector(s);
const boot = JSON.parse($('#boot').textContent);
localStorage.setItem('xmst', boot.msToken);
if (!boot.loggedIn) {
  const poll = setInterval(async () => {
    const r = await fetch('/passport/web/check_qrconnect/?token=' + boot.qrToken).then((x) => x.json());
    if (r.data.status === 'confirmed') { clearInterval(poll); location.href = r.data.redirect_url; }
  }, 1000);
}
let deviceId = localStorage.getItem('samantha_web_web_id');
if (!deviceId) {
  deviceId = String(7_000_000_000_000_000 + Math.floor(Math.random() * 1e15));
  localStorage.setItem('samantha_web_web_id', deviceId);
}
const input = $('[data-testid="chat_input_input"]');
const send = $('[data-testid="chat_input_send_button"]');
const stop = $('[data-testid="chat_input_stop_button"]');
const list = $('[data-testid="message-list"]');
const panel = $('[data-testid="search-reference-ui-v3"]');
const flip = (el, attr) => el.setAttribute(attr, el.getAttribute(attr) === 'true' ? 'false' : 'true');
for (const sw of document.querySelectorAll('.mode-switch'))
  sw.addEventListener('click', () => flip(sw, 'aria-checked'));
const skill = $('[data-skill="web_search"]');
if (skill) skill.addEventListener('click', () => flip(skill, 'aria-pressed'));
const picker = $('[aria-haspopup="menu"]');
const menu = $('[role="menu"]');
if (picker) {
  picker.addEventListener('click', () => {
    menu.hidden = !menu.hidden;
    picker.setAttribute('aria-expanded', String(!menu.hidden));
  });
  for (const item of menu.querySelectorAll('[role="menuitem"]')) {
    item.addEventListener('click', () => {
      picker.dataset.model = item.dataset.model;
      picker.textContent = item.firstChild.textContent;
      menu.hidden = true;
      picker.setAttribute('aria-expanded', 'false');
    });
  }
}
const switchOn = (testid) => {
  const sw = $('[data-testid="' + testid + '"]');
  return !!sw && sw.getAttribute('aria-checked') === 'true';
};
const deepThink = () => switchOn('deep_think_button') || (!!picker && picker.dataset.model === 'expert');
const webSearch = () => switchOn('web_search_button') || (!!skill && skill.getAttribute('aria-pressed') === 'true');
// The page's mode, for the mode drifts that redraw its controls (replicas/common/mode-drift.ts).
window.__replicaModes = {
  labels: { thinking: '深度思考', search: '联网搜索' },
  models: ['Doubao-Seed-1.6', 'Doubao-Seed-1.6-thinking'],
  get: () => ({ thinking: deepThink(), search: webSearch() }),
  set(name, on) {
    const sw = $('[data-mode-control="' + name + '"]');
    if (sw && this.get()[name] !== on) sw.click();
  },
};
const worker = new SharedWorker('/static/samantha-flow-worker.js', { name: 'samantha_flow' });
const turns = new Map();
worker.port.onmessage = (m) => {
  const turn = turns.get(m.data.id);
  if (turn) turn.on(m.data);
};
worker.port.start();
input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); submit(); }
});
send.addEventListener('click', submit);
const newChat = $('[data-new-chat]');
if (newChat) newChat.addEventListener('click', () => {
  if (!stop.hidden) return;
  list.textContent = '';
  panel.hidden = true;
  history.pushState(null, '', '/chat/');
});
function el(tag, attrs, text) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}
function showModal(testid, note) {
  const m = $('[data-testid="' + testid + '"]');
  if (note) $('.modal-note', m).textContent = note;
  m.hidden = false;
}
function toast(text) {
  const t = $('[data-testid="toast"]');
  t.textContent = text;
  t.hidden = false;
}
function submit() {
  const prompt = input.value.trim();
  if (!prompt || !stop.hidden) return;
  input.value = '';
  const id = 'local_' + Date.now() + '_' + turns.size;
  const body = JSON.stringify({
    client_meta: { local_conversation_id: id, conversation_id: '', bot_id: '7338286299411103781' },
    messages: [{ local_message_id: crypto.randomUUID(), message_status: 0,
      content_block: [{ block_type: 10000, content: { text_block: { text: prompt } } }] }],
    option: {
      need_deep_think: deepThink() ? 1 : 0,
      need_web_search: webSearch() ? 1 : 0,
      answer_with_suggest: true,
      need_create_conversation: true,
      start_seq: 0,
      sse_recv_event_options: { support_chunk_delta: true },
    },
  });
  list.append(el('div', { class: 'message send', 'data-testid': 'send_message' }, prompt));
  const turn = newTurn();
  turns.set(id, turn);
  send.hidden = true;
  stop.hidden = false;
  const params = { aid: '497858', device_id: deviceId, device_platform: 'web', language: 'zh',
    pc_version: '2.24.2', pkg_type: 'release_version', real_aid: '497858', region: 'CN',
    samantha_web: '1', sys_region: 'CN', version_code: '20800', msToken: localStorage.getItem('xmst') };
  worker.port.postMessage({ type: 'chat', id, path: '/chat/completion', params, body });
}
function newTurn() {
  const root = el('div', { class: 'message receive', 'data-testid': 'receive_message' });
  const entry = el('div', { class: 'entry-btn', role: 'button', 'data-testid': 'search-reference-entry' });
  entry.hidden = true;
  entry.addEventListener('click', () => { panel.hidden = false; });
  const think = el('div', { class: 'thinking', 'data-testid': 'think_block' });
  think.hidden = true;
  const thinkTitle = el('div', { class: 'thinking-title' }, '思考中');
  const thinkText = el('div', { class: 'thinking-content' });
  think.append(thinkTitle, thinkText);
  const content = el('div', { class: 'md', 'data-testid': 'message_content' });
  const videos = el('div', { class: 'video-cards' });
  const bar = el('div', { class: 'action-bar', 'data-foundation-type': 'receive-message-action-bar' });
  bar.append(el('button', { 'data-testid': 'message_action_copy', 'aria-label': '复制' }, '复制'),
    el('button', { 'data-testid': 'message_action_like', 'aria-label': '喜欢' }, '赞'));
  bar.hidden = true;
  const suggest = el('div', { 'data-foundation-type': 'receive-message-suggest-foundation' });
  root.append(entry, think, content, videos, bar, suggest);
  list.append(root);
  const texts = new Map();
  const thinking = new Set();
  let active = null;
  let buffer = '';
  let sources = 0;
  let ended = false;
  function render() {
    let answer = [], reasoning = [];
    for (const b of texts.values()) {
      const t = b.pieces.join('').trim();
      if (!t) continue;
      if (thinking.has(b.parent)) reasoning.push(t); else if (b.parent === '') answer.push(t);
    }
    content.textContent = answer.join('\n\n');
    thinkText.textContent = reasoning.join('\n\n');
  }
  function textBlock(id, parent, piece) {
    let b = texts.get(id);
    if (!b) { b = { parent, pieces: [] }; texts.set(id, b); }
    if (piece) b.pieces.push(piece);
    active = b;
  }
  function delta(piece) {
    if (!active) { active = { parent: '', pieces: [] }; texts.set('delta', active); }
    active.pieces.push(piece);
  }
  function addSource(card) {
    sources++;
    const item = el('div', { class: 'search-item', 'data-testid': 'search-text-item' });
    const a = el('a', { class: 'search-item-title', href: card.url, target: '_blank' }, card.title);
    const footer = el('div', { class: 'search-item-footer' });
    footer.append(el('img', { class: 'footer-icon', src: card.icon, alt: '' }),
      el('span', { class: 'footer-title' }, card.sitename),
      el('span', { class: 'footer-citation' }, String(card.index)));
    item.append(a, el('div', { class: 'search-item-summary' }, card.summary), footer);
    panel.querySelector('.panel-items').append(item);
  }
  function addVideo(v) {
    sources++;
    const a = el('a', { class: 'video-card', 'data-testid': 'video-card', href: v.url, target: '_blank',
      'data-index': String(v.index), 'data-platform': v.platform });
    a.append(el('img', { class: 'video-cover', src: v.cover, alt: '' }), el('span', { class: 'video-title' }, v.title));
    videos.append(a);
  }
  function block(b) {
    const c = b.content || {};
    if (b.block_type === 10040) {
      thinking.add(b.block_id);
      think.hidden = false;
      const t = c.thinking_block || {};
      if (t.finish_title) thinkTitle.textContent = t.finish_title;
    } else if (b.block_type === 10000) {
      const tb = c.text_block || c.textBlock || {};
      textBlock(b.block_id, b.parent_id || '', tb.text || tb.markdown || '');
    } else if (b.block_type === 10025) {
      for (const r of (c.search_query_result_block || {}).results || []) {
        if (r.text_card) addSource(r.text_card);
        if (r.video_card) addVideo(r.video_card);
      }
      entry.textContent = '参考 ' + sources + ' 篇资料';
      entry.hidden = false;
    }
    if (c.suggest_block) for (const q of c.suggest_block.suggests || [])
      suggest.append(el('div', { class: 'suggest', role: 'button', 'data-testid': 'suggest_message_item' }, q));
  }
  function finish() {
    if (ended) return;
    ended = true;
    bar.hidden = false;
    stop.hidden = true;
    send.hidden = false;
  }
  function fail(code, msg, decision) {
    finish();
    bar.hidden = true;
    if (code === 710012000) showModal('login-modal', '登录已过期，请重新登录');
    else if (code === 710022004 && decision && decision.type === 'verify') showModal('captcha-modal');
    else toast(msg || '当前服务访问频繁，请稍后再试');
  }
  function frame(name, data) {
    if (name === 'STREAM_MSG_NOTIFY' || name === 'FULL_MSG_NOTIFY') {
      const who = (data.message || data.meta || {}).user_type;
      if (who === 1) return;
      for (const b of (data.content || {}).content_block || []) block(b);
    } else if (name === 'STREAM_CHUNK') {
      for (const op of data.patch_op || [])
        if (op.patch_object === 1) for (const b of (op.patch_value || {}).content_block || []) block(b);
    } else if (name === 'CHUNK_DELTA') delta(data.text || data.markdown || '');
    else if (name === 'STREAM_CHUNK_V2') {
      for (const op of data.delta_ops || []) if (op.op === 'append') textBlock(op.block_id, '', op.text || '');
    }
    else if (name === 'SSE_REPLY_END') { if (data.end_type === 1 || data.end_type === 3) finish(); }
    else if (name === 'STREAM_ERROR') {
      let decision = null;
      try { decision = data.extra && JSON.parse(data.extra.decision); } catch (e) {}
      fail(data.error_code, data.error_msg, decision);
    } else if (name === '' && typeof data.event_type === 'number') {
      const d = JSON.parse(data.event_data || '{}');
      if (data.event_type === 2001) {
        const m = d.message || {};
        const c = JSON.parse(m.content || '{}');
        if (m.content_type === 2001 && c.text) { textBlock('samantha', '', ''); delta(c.text); }
        if (m.content_type === 2002) block({ content: { suggest_block: { suggests: c.suggestions || [] } } });
      } else if (data.event_type === 2003) finish();
      else if (data.event_type === 2005) {
        let decision = null;
        try { decision = JSON.parse(((d.error_detail || {}).ext || {}).decision); } catch (e) {}
        fail(d.code, d.message, decision);
      }
    }
    render();
  }
  return {
    on(msg) {
      if (msg.type === 'response' && msg.status !== 200) {
        stop.hidden = true; send.hidden = false; ended = true;
        if (msg.status === 401) showModal('login-modal', '请先登录再使用豆包');
        else toast('请求失败（' + msg.status + '）');
      } else if (msg.type === 'chunk' && !ended) {
        buffer = (buffer + msg.text).replace(/\r\n/g, '\n');
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const raw = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let name = '', data = [];
          for (const line of raw.split('\n')) {
            if (line.startsWith('event:')) name = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trim());
          }
          if (!data.length) continue;
          try { frame(name, JSON.parse(data.join('\n'))); } catch (e) {}
        }
      } else if (msg.type === 'end' || msg.type === 'failed') finish();
    },
  };
}
})();`;
