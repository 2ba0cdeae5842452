/**
 * The replica chat page's own script, as DeepSeek's SPA behaves: it loads
 * the user with the `userToken` from localStorage (none or expired: off to
 * /sign_in), creates a chat session, fetches and solves the proof-of-work,
 * sends `POST /api/v0/chat/completion` with `X-Ds-Pow-Response`, and renders
 * the patch stream as it arrives (reasoning, search results in the sources
 * panel, the Markdown answer with its citation chips). A plain string, so no
 * loader rewrites it.
 */
import { SCRIPT_KIT } from '../common/page-kit.js';

export const CHAT_SCRIPT = String.raw`
(function(){
${SCRIPT_KIT}
  var $ = function(s, r){ return (r || document).querySelector(s); };
  var token = null;
  try { token = JSON.parse(localStorage.getItem('userToken') || 'null').value; } catch (e) { token = null; }
  if (!token) { location.replace('/sign_in'); return; }

  function api(path, body, extra){
    var headers = { 'content-type': 'application/json', authorization: 'Bearer ' + token,
      'x-client-platform': 'web', 'x-app-version': '20261101.0', 'x-client-locale': 'zh_CN' };
    for (var k in (extra || {})) headers[k] = extra[k];
    return fetch(path, { method: body === undefined ? 'GET' : 'POST', headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body) });
  }
  // The site says so first, then sends the person to sign in again.
  function expired(){
    localStorage.removeItem('userToken');
    showToast('登录已过期，请重新登录');
    setTimeout(function(){ location.replace('/sign_in'); }, 1500);
  }

  api('/api/v0/users/current').then(function(r){ return r.json(); }).then(function(u){
    if (u.code !== 0) { localStorage.removeItem('userToken'); return location.replace('/sign_in'); }
    $('.ds-user-name').textContent = u.data.biz_data.email;
    $('#root').hidden = false;
    $('#loading').remove();
  });

  var input = $('#chat-input'), send = $('.ds-send-button'), stop = $('.ds-stop-button');
  var messages = $('.ds-messages'), panel = $('.ds-sources-panel'), toast = $('.ds-toast');
  var sessionId = null, busy = false;
  var enc = new TextEncoder();

  document.querySelectorAll('.ds-toggle-button').forEach(function(b){
    b.addEventListener('click', function(){
      var on = b.getAttribute('aria-pressed') !== 'true';
      b.setAttribute('aria-pressed', String(on));
      b.classList.toggle('ds-toggle-button--selected', on);
    });
  });
  function pressed(label){
    var all = document.querySelectorAll('.ds-toggle-button');
    for (var i = 0; i < all.length; i++)
      if (all[i].textContent.trim() === label) return all[i].getAttribute('aria-pressed') === 'true';
    return false;
  }
  // The page's mode, for the mode drifts that redraw its controls (replicas/common/mode-drift.ts).
  var LABELS = { thinking: '深度思考', search: '智能搜索' };
  window.__replicaModes = {
    labels: LABELS,
    models: ['DeepSeek-V3.2', 'DeepSeek-R1'],
    get: function(){ return { thinking: pressed(LABELS.thinking), search: pressed(LABELS.search) }; },
    set: function(name, on){
      var chip = document.querySelector('[data-mode-control="' + name + '"]');
      if (chip && pressed(LABELS[name]) !== on) chip.click();
    },
    account: function(){ return token; },
  };
  input.addEventListener('input', function(){
    send.setAttribute('aria-disabled', input.value.trim() ? 'false' : 'true');
  });
  send.addEventListener('click', function(){ if (!busy && input.value.trim()) ask(input.value.trim()); });
  input.addEventListener('keydown', function(e){
    if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); if (!busy && input.value.trim()) ask(input.value.trim()); }
  });
  $('.ds-sources-close').addEventListener('click', function(){ panel.hidden = true; });
  var newChat = $('.ds-new-chat');
  if (newChat) newChat.addEventListener('click', function(){
    if (busy) return;
    sessionId = null;
    messages.innerHTML = '';
    panel.hidden = true;
    toast.hidden = true;
    history.pushState(null, '', '/');
  });

  function showToast(text){ toast.textContent = text; toast.hidden = false; }

  function zeroBits(bytes){
    var bits = 0;
    for (var i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0) { bits += 8; continue; }
      return bits + Math.clz32(bytes[i]) - 24;
    }
    return bits;
  }
  async function solve(c){
    for (var n = 0; ; n++) {
      var d = await crypto.subtle.digest('SHA-256', enc.encode(c.salt + '_' + c.expire_at + '_' + n + c.challenge));
      if (zeroBits(new Uint8Array(d)) >= c.difficulty) return n;
    }
  }

  // The patch stream: {v, p, o} on one response object (see the driver's patch.ts).
  function Patches(){ this.root = {}; }
  Patches.prototype.slot = function(path){
    var seg = path.split('/'), node = this.root;
    for (var i = 0; i < seg.length - 1; i++) node = pick(node, seg[i]);
    var last = seg[seg.length - 1];
    return { parent: node, key: Array.isArray(node) ? idx(node, last) : last };
  };
  function idx(list, s){ var n = Number(s); return n < 0 ? list.length + n : n; }
  function pick(node, s){ return Array.isArray(node) ? node[idx(node, s)] : node[s]; }
  Patches.prototype.at = function(path, op, v){
    if (op === 'BATCH') { for (var i = 0; i < v.length; i++) this.at(path + '/' + v[i].p, v[i].o || 'SET', v[i].v); return; }
    var s = this.slot(path), cur = s.parent[s.key];
    if (op === 'APPEND') {
      if (Array.isArray(cur)) s.parent[s.key] = cur.concat(v);
      else s.parent[s.key] = (cur || '') + v;
    } else s.parent[s.key] = v;
  };
  Patches.prototype.apply = function(m){
    if (!m.p) {
      if (typeof m.v === 'string') return this.at('response/fragments/-1/content', 'APPEND', m.v);
      if (m.v && m.v.response) { this.root.response = m.v.response; return; }
      return;
    }
    this.at(m.p, m.o || 'SET', m.v);
  };

  function render(turn, st){
    var r = st.root.response || {}, frags = r.fragments || [];
    var think = [], answer = '', results = [], opened = {}, template = '';
    frags.forEach(function(f){
      if (f.type === 'THINK') think.push(f.content || '');
      else if (f.type === 'RESPONSE') answer += f.content || '';
      else if (f.type === 'TEMPLATE_RESPONSE') template += f.content || '';
      else if ((f.type === 'TOOL_SEARCH' || f.type === 'SEARCH') && f.results) results = results.concat(f.results);
      else if (f.type === 'TOOL_OPEN' && f.result) opened[f.id] = f.result.url;
    });
    if (think.length) { $('.ds-think', turn).hidden = false; $('.ds-think-content', turn).textContent = think.join('\n\n'); }
    if (results.length) {
      var opener = $('.ds-search-summary', turn);
      opener.hidden = false;
      opener.textContent = '已搜索到 ' + results.length + ' 个网页';
      turn.sources = results;
    }
    var numberOf = function(url){ for (var i = 0; i < results.length; i++) if (results[i].url === url) return i + 1; return null; };
    $('.ds-markdown', turn).innerHTML = markdown(template || answer, function(kind, n){
      var k = kind === 'reference' ? numberOf(opened[n]) : Number(n);
      var src = k ? results[k - 1] : null;
      return '<a class="ds-markdown-cite" data-ref="' + esc(k || n) + '"' + (src ? ' href="' + esc(src.url) + '" target="_blank"' : '') + '>' + esc(k || n) + '</a>';
    });
  }
  function markdown(text, cite){
    var inline = function(s){
      return esc(s).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\[(reference|citation):(\d+)\]/g, function(m, kind, n){ return cite(kind, n); });
    };
    var out = [], list = false;
    text.split('\n').forEach(function(line){
      if (/^- /.test(line)) { if (!list) { out.push('<ul>'); list = true; } out.push('<li>' + inline(line.slice(2)) + '</li>'); return; }
      if (list) { out.push('</ul>'); list = false; }
      if (/^## /.test(line)) out.push('<h2>' + inline(line.slice(3)) + '</h2>');
      else if (line.trim()) out.push('<p>' + inline(line) + '</p>');
    });
    if (list) out.push('</ul>');
    return out.join('');
  }
  function openSources(turn){
    var list = $('.ds-sources-list');
    list.innerHTML = (turn.sources || []).map(function(s, i){
      return '<a class="ds-source-card" data-index="' + (i + 1) + '" href="' + esc(s.url) + '" target="_blank">' +
        '<span class="ds-source-site"><img class="ds-source-icon" alt="" src="' + esc(s.site_icon) + '">' + esc(s.site_name) + '</span>' +
        '<span class="ds-source-title">' + esc(s.title) + '</span>' +
        '<span class="ds-source-snippet">' + esc(s.snippet) + '</span></a>';
    }).join('');
    panel.hidden = false;
  }

  async function readStream(res, turn){
    var st = new Patches();
    await readEvents(res, function(name, data){
      if (!data) return;
      var payload = JSON.parse(data);
      if (name === 'hint') {
        showToast(payload.content);
        if (payload.clear_response) turn.remove();
        return;
      }
      if (name === 'delta') payload = { v: payload.text };
      else if (name !== 'message') return;
      if (payload.v === undefined && typeof payload.content === 'string')
        payload = { p: payload.p, o: payload.o, v: payload.content };
      st.apply(payload);
      render(turn, st);
    });
  }

  function newTurn(prompt){
    var user = document.createElement('div');
    user.className = 'ds-message ds-message--user';
    user.textContent = prompt;
    var turn = document.createElement('div');
    turn.className = 'ds-message ds-message--assistant';
    turn.innerHTML = '<div class="ds-think" hidden><div class="ds-think-title">已深度思考</div><div class="ds-think-content"></div></div>' +
      '<div class="ds-search-summary" role="button" tabindex="0" hidden></div>' +
      '<div class="ds-markdown ds-assistant-message-main-content"></div>';
    $('.ds-search-summary', turn).addEventListener('click', function(){ openSources(turn); });
    messages.appendChild(user);
    messages.appendChild(turn);
    return turn;
  }

  function failed(body){
    var code = body && body.code, biz = body && body.data ? body.data.biz_msg : '';
    if (code === 40003) return expired();
    if (biz === 'HCAPTCHA_REQUIRED') { $('.ds-hcaptcha').hidden = false; return; }
    showToast((body && (body.msg || biz)) || '请求失败');
  }

  async function ask(prompt){
    busy = true;
    input.value = '';
    send.hidden = true;
    stop.hidden = false;
    toast.hidden = true;
    var turn = newTurn(prompt);
    try {
      if (!sessionId) {
        var s = await (await api('/api/v0/chat_session/create', { character_id: null })).json();
        if (s.code !== 0) return failed(s);
        sessionId = s.data.biz_data.id;
        history.replaceState(null, '', '/a/chat/s/' + sessionId);
      }
      var pc = await (await api('/api/v0/chat/create_pow_challenge', { target_path: '/api/v0/chat/completion' })).json();
      if (pc.code !== 0) return failed(pc);
      var c = pc.data.biz_data.challenge;
      var answer = await solve(c);
      var pow = btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, salt: c.salt,
        answer: answer, signature: c.signature, target_path: c.target_path }));
      var res = await api('/api/v0/chat/completion', { chat_session_id: sessionId, parent_message_id: null,
        prompt: prompt, ref_file_ids: [], thinking_enabled: pressed('深度思考'), search_enabled: pressed('智能搜索') },
        { 'x-ds-pow-response': pow });
      if (res.status === 401 || res.status === 403) return expired();
      if ((res.headers.get('content-type') || '').indexOf('text/event-stream') < 0)
        return failed(await res.json().catch(function(){ return null; }));
      await readStream(res, turn);
    } catch (e) {
      showToast('网络错误，请重试');
    } finally {
      busy = false;
      send.hidden = false;
      stop.hidden = true;
    }
  }
})();
`;
