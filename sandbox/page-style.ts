/** The chat page's and the login wall's CSS (no external resources). */
export const PAGE_STYLE = String.raw`
:root{--bg:#f7f7f8;--panel:#fff;--ink:#1f2328;--muted:#6b7280;--line:#e5e7eb;--accent:#5b5bd6;--accent-ink:#fff;--soft:#eef0ff}
*{box-sizing:border-box}
[hidden]{display:none !important}
html,body{min-height:100%;margin:0}
body{font:15px/1.6 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","PingFang SC",sans-serif;color:var(--ink);background:var(--bg);display:flex;min-height:100vh}
aside{width:248px;background:#171923;color:#e2e8f0;display:flex;flex-direction:column;padding:16px 12px;gap:8px;flex-shrink:0}
aside .logo{display:flex;align-items:center;gap:10px;font-weight:700;font-size:17px;padding:4px 8px 12px}
aside .logo i{width:28px;height:28px;border-radius:8px;background:linear-gradient(135deg,#7c7cf0,#36c2b4);display:inline-block}
aside button.new{background:#2d3148;color:#fff;border:0;border-radius:10px;padding:10px 12px;text-align:left;font:inherit;cursor:pointer}
aside .hist{font-size:13px;color:#a0aec0;padding:8px;border-radius:8px}
aside .hist.active{background:#262a3d;color:#fff}
aside .foot{margin-top:auto;font-size:12px;color:#718096;padding:8px}
main{flex:1;display:flex;flex-direction:column;min-width:0;min-height:100vh}
header{height:56px;border-bottom:1px solid var(--line);background:var(--panel);position:sticky;top:0;z-index:2;display:flex;align-items:center;padding:0 24px;gap:12px}
header .model{font-weight:600}
header .badge{font-size:12px;background:var(--soft);color:var(--accent);padding:2px 8px;border-radius:999px}
#conversation{flex:1;padding:28px 0 24px}
.thread{max-width:820px;margin:0 auto;padding:0 24px;display:flex;flex-direction:column;gap:20px}
.empty{text-align:center;color:var(--muted);margin-top:12vh}
.empty h1{color:var(--ink);font-size:28px;margin:0 0 8px}
.msg.user{align-self:flex-end;background:var(--accent);color:var(--accent-ink);padding:10px 16px;border-radius:18px 18px 4px 18px;max-width:75%;white-space:pre-wrap}
.msg.assistant{display:flex;gap:12px}
.avatar{width:32px;height:32px;border-radius:50%;background:linear-gradient(135deg,#7c7cf0,#36c2b4);flex-shrink:0}
.bubble{flex:1;min-width:0}
#reasoning{border:1px solid var(--line);background:#fafafa;border-radius:12px;padding:10px 14px;margin-bottom:12px;font-size:13.5px;color:#4b5563}
#reasoning summary{cursor:pointer;font-weight:600;color:#374151}
#reasoning .reasoning-summary{font-weight:400;color:var(--muted);margin-left:6px}
#reasoning .reasoning-content{white-space:pre-wrap;margin-top:8px;border-left:3px solid var(--line);padding-left:10px}
#answer h2{font-size:20px;margin:4px 0 8px}
#answer h3{font-size:16px;margin:16px 0 6px}
#answer p{margin:8px 0}
#answer table{border-collapse:collapse;margin:10px 0;font-size:14px}
#answer th,#answer td{border:1px solid var(--line);padding:6px 12px;text-align:left}
#answer th{background:#f3f4f6}
#answer blockquote{margin:10px 0;padding:6px 14px;border-left:4px solid var(--accent);background:var(--soft);border-radius:0 8px 8px 0}
#answer code{background:#f3f4f6;padding:1px 5px;border-radius:5px;font-size:13px}
#answer pre{background:#111827;color:#e5e7eb;padding:12px;border-radius:10px;overflow:auto}
sup.cite{font-size:11px;margin-left:1px}
sup.cite a{display:inline-block;min-width:16px;text-align:center;background:var(--soft);color:var(--accent);border-radius:8px;padding:0 4px;text-decoration:none}
body[data-state=streaming] #answer:after{content:"";display:inline-block;width:8px;height:16px;background:var(--ink);margin-left:2px;vertical-align:text-bottom;animation:blink 1s steps(1) infinite}
@keyframes blink{50%{opacity:0}}
.section-title{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:16px 0 8px;font-weight:600}
#references ol{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:8px}
#references li{border:1px solid var(--line);background:var(--panel);border-radius:10px;padding:8px 10px;display:flex;gap:8px;align-items:flex-start;font-size:13px}
#references li[data-cited=true]{border-color:#c7c7f5;box-shadow:0 0 0 1px #e0e0fb inset}
#references .ref-num{color:var(--muted);font-variant-numeric:tabular-nums}
#references .ref-icon{width:18px;height:18px;border-radius:4px;background:#dbeafe;color:#1d4ed8;font-size:11px;font-weight:700;display:inline-flex;align-items:center;justify-content:center;flex-shrink:0}
#references a.ref-title{color:var(--ink);text-decoration:none;font-weight:500;display:block}
#references .ref-site{color:var(--muted);font-size:12px}
#related ul{list-style:none;padding:0;margin:0}
#related li{border-top:1px solid var(--line);padding:8px 2px;color:var(--accent);cursor:pointer}
#related li:before{content:"↳ ";color:var(--muted)}
#media{margin-top:14px}
#media img{max-width:360px;width:100%;border-radius:12px;display:block;border:1px solid var(--line)}
#media figcaption{font-size:12px;color:var(--muted);margin-top:4px}
#error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;border-radius:10px;padding:10px 14px}
.composer{border-top:1px solid var(--line);background:var(--panel);padding:14px 24px 18px}
.composer .box{max-width:820px;margin:0 auto;border:1px solid var(--line);border-radius:16px;padding:10px 12px;background:#fff;box-shadow:0 2px 10px rgba(0,0,0,.04)}
#prompt{width:100%;border:0;outline:0;resize:none;font:inherit;min-height:48px;max-height:200px}
.tools{display:flex;align-items:center;gap:10px;margin-top:6px}
.toggle{display:inline-flex;align-items:center;gap:8px;border:1px solid var(--line);border-radius:999px;padding:4px 12px 4px 6px;font-size:13px;cursor:pointer;user-select:none}
.toggle input{appearance:none;width:30px;height:18px;border-radius:999px;background:#d1d5db;position:relative;margin:0;cursor:pointer;transition:background .15s}
.toggle input:after{content:"";position:absolute;top:2px;left:2px;width:14px;height:14px;border-radius:50%;background:#fff;transition:left .15s}
.toggle input:checked{background:var(--accent)}
.toggle input:checked:after{left:14px}
#send{margin-left:auto;background:var(--accent);color:#fff;border:0;border-radius:10px;padding:8px 18px;font:inherit;font-weight:600;cursor:pointer}
#send:disabled{opacity:.45;cursor:default}
.hint{max-width:820px;margin:6px auto 0;font-size:12px;color:var(--muted);text-align:center}
.login{margin:auto;width:380px;background:var(--panel);border:1px solid var(--line);border-radius:16px;padding:32px;box-shadow:0 10px 30px rgba(0,0,0,.06)}
.login h1{font-size:22px;margin:0 0 6px}
.login p{color:var(--muted);margin:0 0 18px}
.login label{display:block;font-size:13px;margin:10px 0 4px}
.login input{width:100%;padding:9px 12px;border:1px solid var(--line);border-radius:8px;font:inherit}
.login button{margin-top:18px;width:100%;background:var(--accent);color:#fff;border:0;border-radius:8px;padding:10px;font:inherit;font-weight:600}
`;
