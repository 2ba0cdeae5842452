/**
 * The plumbing replica chat page scripts share, as script text a page script
 * puts at the top of its own function (`${SCRIPT_KIT}`), so each site's
 * script keeps only what is its own: its markup, its calls, its stream.
 * Plain strings, like the page scripts, so no loader rewrites them; no class
 * names in them, so a drifted build's page text changes only the site's own.
 */

/** Helpers without a DOM lookup: escaping, a digest, the answer's lines, an SSE reader. */
export const SCRIPT_KIT = String.raw`
  function esc(s){ return String(s).replace(/[&<>"']/g, function(c){
    return {'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]; }); }
  var utf8 = new TextEncoder();
  async function sha256Hex(text){
    var d = await crypto.subtle.digest('SHA-256', utf8.encode(text));
    return Array.from(new Uint8Array(d)).map(function(b){ return b.toString(16).padStart(2, '0'); }).join('');
  }
  // The answer's markdown as the page draws it: ## headings, - items and paragraphs, each line's text by inline.
  function markdownLines(text, inline){
    return text.split('\n').map(function(line){
      if (/^## /.test(line)) return '<h2>' + inline(line.slice(3)) + '</h2>';
      if (/^- /.test(line)) return '<li>' + inline(line.slice(2)) + '</li>';
      return line.trim() ? '<p>' + inline(line) + '</p>' : '';
    }).join('');
  }
  // An SSE body event by event (its name, message by default, and its data lines joined),
  // then afterChunk once the events of each chunk read are handled.
  async function readEvents(res, onEvent, afterChunk){
    var reader = res.body.getReader(), dec = new TextDecoder(), buf = '';
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) break;
      buf += dec.decode(chunk.value, { stream: true });
      var blocks = buf.split(/\r?\n\r?\n/);
      buf = blocks.pop();
      blocks.forEach(function(block){
        var name = 'message', data = [];
        block.split(/\r?\n/).forEach(function(l){
          if (l.indexOf('event:') === 0) name = l.slice(6).trim();
          else if (l.indexOf('data:') === 0) data.push(l.slice(5).replace(/^ /, ''));
        });
        onEvent(name, data.join('\n'));
      });
      if (afterChunk) afterChunk();
    }
  }
`;

/**
 * The composer of a page whose elements carry the replica's own `data-r`
 * hooks (a drifted build changes only what a driver sees): `$` finds one,
 * toast and dialogs, Enter to send, the new-chat control, and the page's
 * mode for the mode drifts. exposeModes reads the page's `state.think` /
 * `state.search` and redraws through its `renderTools`.
 */
export const DATA_R_KIT = String.raw`
  var $ = function(name, root){ return (root || document).querySelector('[data-r="' + name + '"]'); };
  function toast(text){ var t = $('toast'); t.textContent = text; t.hidden = false; }
  function show(name){ $(name).hidden = false; }
  // A click on a hooked element inside the named one: its hook, the element and the event.
  function onHook(name, handle){
    $(name).addEventListener('click', function(e){
      var el = e.target.closest('[data-r]');
      if (el) return handle(el.getAttribute('data-r'), el, e);
    });
  }
  function sendOnEnter(input, send){
    input.addEventListener('keydown', function(e){
      if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); send(); }
    });
  }
  // The new-chat control (the no_new_chat drift removes it): ignored while an answer streams.
  function onNewChat(streaming, reset){
    if ($('new-chat')) $('new-chat').addEventListener('click', function(e){
      e.preventDefault();
      if (streaming()) return;
      reset();
    });
  }
  // The page's mode, for the mode drifts that redraw its controls (replicas/common/mode-drift.ts).
  function exposeModes(labels, models, more){
    window.__replicaModes = Object.assign({
      labels: labels,
      models: models,
      get: function(){ return { thinking: state.think, search: state.search }; },
      set: function(name, on){ state[name === 'thinking' ? 'think' : 'search'] = on; renderTools(); },
    }, more || {});
  }
`;
