/**
 * A QR-code login as sites whose accounts sign in with their phone app have
 * it: the login dialog frames a page with a fresh ticket's QR code, which
 * polls the ticket's status until a scan confirms it, and the confirmed
 * poll sets the session's cookies. Here a test confirms the newest ticket
 * (`POST /__replica/login`), as the scan in the app would. The paths, the
 * page's words and the cookies are the site's own.
 */
import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { driftPage, type Drifts } from './drift.js';
import { readBody, sendHtml, sendJson, type Route } from './site.js';

export interface QrLogin {
  /** Where the login dialog's frame loads the QR page. */
  qrPath: string;
  /** Where the QR page polls its ticket. */
  statusPath: string;
  /** The QR page's words: its title, the image's alt text and the caption under it. */
  words: { title: string; alt: string; caption: string };
  /** The code's size, px. */
  size: number;
  /** The session cookies the confirmed poll sets. */
  sessionCookies: readonly string[];
  drift: Drifts;
  /** The replica's address (the code holds it), once it serves. */
  base(): string;
}

/** The framed QR page: the code, and its poll until the ticket is confirmed (then the page reloads). */
export function qrPage(qrDataUrl: string, ticket: string, p: QrLogin): string {
  const { title, alt, caption } = p.words;
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title></head>
<body style="margin:0;text-align:center;font-family:sans-serif">
<img alt="${alt}" src="${qrDataUrl}" width="${p.size}" height="${p.size}"><p>${caption}</p>
<script>
(function(){
  var ticket = ${JSON.stringify(ticket)};
  function poll(){
    fetch('${p.statusPath}?ticket=' + encodeURIComponent(ticket)).then(function(r){ return r.json(); })
      .then(function(b){ if (b.status === 'confirmed') parent.location.reload(); else setTimeout(poll, 400); },
        function(){ setTimeout(poll, 1000); });
  }
  poll();
})();
</script></body></html>`;
}

/** The QR page, its status poll and the test-only confirmation. */
export function qrLoginRoutes(p: QrLogin): Route[] {
  /** QR tickets: false until the (test-only) login confirms them. */
  const tickets = new Map<string, boolean>();
  return [
    {
      method: 'GET',
      path: p.qrPath,
      handle: async (_q, res) => {
        const ticket = randomUUID();
        tickets.set(ticket, false);
        const qr = await QRCode.toDataURL(`${p.base()}/qr/${ticket}`, { margin: 1, width: p.size });
        sendHtml(res, driftPage(qrPage(qr, ticket, p), p.drift));
      },
    },
    {
      method: 'GET',
      path: p.statusPath,
      handle: (_q, res, url) => {
        const state = tickets.get(url.searchParams.get('ticket') ?? '');
        if (state === undefined) return sendJson(res, { status: 'expired' });
        if (!state) return sendJson(res, { status: 'waiting' });
        res.setHeader('set-cookie', p.sessionCookies);
        sendJson(res, { status: 'confirmed' });
      },
    },
    {
      // Test-only: confirms the newest QR ticket, as a scan in the site's app would.
      method: 'POST',
      path: '/__replica/login',
      handle: async (req, res) => {
        await readBody(req);
        const ticket = [...tickets.keys()].pop();
        if (!ticket) return sendJson(res, { ok: false }, 404);
        tickets.set(ticket, true);
        sendJson(res, { ok: true });
      },
    },
  ];
}
