/**
 * The mode controls drawn as another build of a site draws them, for any
 * replica (drift.ts): a script run before the page's own that hides the
 * replica's mode controls (marked `data-mode-control="thinking|search"`)
 * and draws its own widgets in their place, near the composer, which work
 * the replica's controls through the page's own mode API:
 *
 *   window.__replicaModes = {
 *     labels: { thinking: '深度思考', search: '联网搜索' }, // the site's words
 *     models: ['Kimi', '长思考 (k1.5)'],  // a model-name picker: off, then on
 *     get(): { thinking, search },        // the page's own state
 *     set(name, on),                      // changes it as the page's control would
 *     account?(): string,                 // whose preferences (persisted_mode)
 *   };
 *
 * The page's own script still builds the chat call from its own state, so
 * the mode the replica runs is what the request asks, as without the drift.
 * - nameless_controls: each toggle a `role=switch` without a name; its
 *   label a sibling text in the same row (clicking the row works too);
 * - checkbox_controls: each toggle a checkbox, labelled by a wrapping label
 *   (deep thinking) or `<label for>` (search);
 * - menu_controls: both toggles menu item checkboxes behind a 更多 button;
 *   the menu closes when an item is chosen;
 * - model_name_picker: deep thinking a picker that shows a model name, its
 *   listbox the site's model names (the thinking one holds an on-word);
 * - persisted_mode: the page remembers the last choices in localStorage per
 *   account and starts the next load with them.
 */

export const MODE_DRIFTS = [
  'nameless_controls',
  'checkbox_controls',
  'menu_controls',
  'model_name_picker',
  'persisted_mode',
] as const;
export type ModeDrift = (typeof MODE_DRIFTS)[number];

/** The page's localStorage key of the remembered choices (`:<account>` follows). */
export const PREFS_KEY = 'replica_mode_prefs';

/** The script, to run before the page's own. */
export function modeDriftScript(drifts: readonly ModeDrift[]): string {
  return String.raw`(function(){
  var D = ${JSON.stringify(drifts)};
  var has = function(d){ return D.indexOf(d) >= 0; };
  var NAMES = ['thinking', 'search'];
  function keyOf(api){ return ${JSON.stringify(PREFS_KEY)} + ':' + (api.account ? api.account() : ''); }
  function save(api){ try { localStorage.setItem(keyOf(api), JSON.stringify(api.get())); } catch (e) {} }
  function el(tag, attrs, text){
    var n = document.createElement(tag);
    for (var k in attrs) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    return n;
  }
  var widgets = [];
  function sync(api){ var s = api.get(); widgets.forEach(function(w){ w(s); }); }

  function nameless(api, box, name){
    var row = el('div', { style: 'display:inline-flex;gap:6px;align-items:center;margin-right:10px;cursor:pointer' });
    var sw = el('span', { role: 'switch', tabindex: '0', 'aria-checked': 'false',
      style: 'display:inline-block;width:28px;height:16px;border-radius:8px;background:#ccc' });
    row.append(sw, el('span', {}, api.labels[name]));
    row.addEventListener('click', function(){ api.set(name, !api.get()[name]); sync(api); });
    widgets.push(function(s){ sw.setAttribute('aria-checked', String(s[name])); sw.style.background = s[name] ? '#4d6bfe' : '#ccc'; });
    box.append(row);
  }
  function checkbox(api, box, name){
    var input = el('input', { type: 'checkbox' });
    if (name === 'thinking') {
      var label = el('label', { style: 'margin-right:10px' });
      label.append(input, el('span', {}, ' ' + api.labels[name]));
      box.append(label);
    } else {
      input.id = 'replica-mode-' + name;
      box.append(input, el('label', { for: input.id, style: 'margin-right:10px' }, api.labels[name]));
    }
    input.addEventListener('change', function(){ api.set(name, input.checked); sync(api); });
    widgets.push(function(s){ input.checked = s[name]; });
  }
  function menu(api, box, names){
    var wrap = el('span', { style: 'position:relative;margin-right:10px' });
    var opener = el('button', { type: 'button', 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-label': '更多' }, '+');
    var list = el('div', { role: 'menu', hidden: '', style: 'border:1px solid #ddd;background:#fff;padding:4px' });
    var show = function(open){ list.hidden = !open; opener.setAttribute('aria-expanded', String(open)); };
    opener.addEventListener('click', function(){ show(list.hidden); });
    names.forEach(function(name){
      var item = el('div', { role: 'menuitemcheckbox', tabindex: '0', 'aria-checked': 'false', style: 'padding:4px 12px;cursor:pointer' }, api.labels[name]);
      item.addEventListener('click', function(){ api.set(name, !api.get()[name]); show(false); sync(api); });
      widgets.push(function(s){ item.setAttribute('aria-checked', String(s[name])); });
      list.append(item);
    });
    wrap.append(opener, list);
    box.append(wrap);
  }
  function picker(api, box){
    var wrap = el('span', { style: 'position:relative;margin-right:10px' });
    var opener = el('button', { type: 'button', 'aria-haspopup': 'listbox', 'aria-expanded': 'false' }, api.models[0]);
    var list = el('div', { role: 'listbox', hidden: '', style: 'border:1px solid #ddd;background:#fff;padding:4px' });
    var show = function(open){ list.hidden = !open; opener.setAttribute('aria-expanded', String(open)); };
    opener.addEventListener('click', function(){ show(list.hidden); });
    var options = api.models.map(function(model, i){
      var option = el('div', { role: 'option', tabindex: '0', 'aria-selected': 'false', style: 'padding:4px 12px;cursor:pointer' }, model);
      option.addEventListener('click', function(){ api.set('thinking', i === 1); show(false); sync(api); });
      list.append(option);
      return option;
    });
    widgets.push(function(s){
      opener.textContent = api.models[s.thinking ? 1 : 0];
      options.forEach(function(o, i){ o.setAttribute('aria-selected', String((i === 1) === s.thinking)); });
    });
    wrap.append(opener, list);
    box.append(wrap);
  }

  function start(){
    var api = window.__replicaModes;
    if (!api) return;
    if (has('persisted_mode')) {
      var saved = null;
      try { saved = JSON.parse(localStorage.getItem(keyOf(api)) || 'null'); } catch (e) { saved = null; }
      if (saved) NAMES.forEach(function(name){
        if (typeof saved[name] === 'boolean' && api.get()[name] !== saved[name]) api.set(name, saved[name]);
      });
      // After the page's own handlers: whatever changed the mode, remember it.
      document.addEventListener('click', function(){ setTimeout(function(){ save(api); }, 0); });
    }
    var present = NAMES.filter(function(name){ return document.querySelector('[data-mode-control="' + name + '"]'); });
    var drawn = has('model_name_picker') ? present.filter(function(n){ return n === 'thinking'; })
      : has('nameless_controls') || has('checkbox_controls') || has('menu_controls') ? present : [];
    if (drawn.length === 0) return;
    var style = el('style', {}, drawn.map(function(n){ return '[data-mode-control="' + n + '"]'; }).join(', ') + ' { display: none !important; }');
    document.head.append(style);
    var host = document.querySelector('[data-mode-control]').parentElement;
    var box = el('div', { style: 'display:flex;align-items:center;flex-wrap:wrap;margin:4px 0' });
    host.parentElement.insertBefore(box, host);
    if (has('model_name_picker')) picker(api, box);
    else if (has('menu_controls')) menu(api, box, drawn);
    else drawn.forEach(function(name){ (has('checkbox_controls') ? checkbox : nameless)(api, box, name); });
    sync(api);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();`;
}
