/**
 * A local replica of doubao.com for tests and `npm run replica -- doubao`
 * (loopback only). The chat page (page.ts) sends its chat call from a
 * SharedWorker (worker-script.ts) to `POST /chat/completion?aid=497858&
 * device_id=…&msToken=…&a_bogus=…`; the server checks the page-computed
 * `a_bogus` (sign.ts) and the issued `msToken`, the session cookies
 * `sessionid` / `sid_tt`, and streams the answer (answers.ts) in the 2026
 * format (frames.ts). Misbehaviour by prompt directive (`#replica:<variant>`,
 * replicas/common/site.ts), each in Doubao's own way:
 * - login_wall: HTTP 401 on the chat call (and the page's login modal);
 *   a visitor without a session cookie gets the login modal on the page;
 * - captcha: `STREAM_ERROR` 710022004 with a `verify` / `slide` decision;
 * - expired: `STREAM_ERROR` 710012000 "user invalid" (also for the session of
 *   `expiredStorageState()`);
 * - rate_limit: `STREAM_ERROR` 710022002;
 * - old_format: a 307 to `/samantha/chat/completion`, which streams the older
 *   samantha format;
 * - unknown_frame: a frame type no parser knows, mid-stream;
 * - refusal: Doubao's stock refusal text.
 * This replica's own directives, for the DOM fallback: `#doubao:no_end` ends
 * the stream without its end marker, `#doubao:stall` ends the message
 * (end_type 1) and then keeps the stream open without a byte. The page's
 * mode controls are chosen when the replica starts (`controls`: the
 * switches, the 快速 / 专家 picker with a 联网搜索 skill button, or none).
 * Under the `call_in_page` drift (replicas/common/drift.ts) the page runs
 * the worker's script itself and makes the same signed call.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import QRCode from 'qrcode';
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import {
  cookies,
  readBody,
  sendHtml,
  sendJson,
  startSite,
  storageStateFor,
  variantOf,
  type Asked,
} from '../common/site.js';
import { REFUSAL_TEXT, replicaAnswer, type Flags } from './answers.js';
import {
  frames2026,
  framesSamantha,
  STREAM_VARIANTS,
  streamError,
  type Conversation,
} from './frames.js';
import { streamVariantOf } from '../common/stream-variants.js';
import { chatPathRoutes } from '../common/chat-path.js';
import { driftDoubaoStream } from './stream-drift.js';
import { driftPage, firstByte, type CallFrom } from '../common/drift.js';
import { modeOf, type AskingReplica, type ReplicaOptions } from '../common/replica.js';
import { chatPageHtml, type Controls } from './page.js';
import { aBogus, signedQuery } from './sign.js';
import { workerScript } from './worker-script.js';

export interface DoubaoReplica extends AskingReplica {
  /** An account whose session the site no longer accepts (710012000 "user invalid"). */
  expiredStorageState(): StorageState;
  /** Chat calls the replica answered, with what the page sent. */
  readonly calls: { path: string; body: string; status: number }[];
}

/** The page makes its chat call in its SharedWorker, as Doubao's does. */
export const CALL_FROM: CallFrom = 'worker';

const token = () => randomBytes(16).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readRequest(body: string): { prompt: string; flags: Flags } {
  const b = JSON.parse(body) as {
    messages?: { content_block?: { content?: { text_block?: { text?: string } } }[] }[];
    option?: { need_deep_think?: number; need_web_search?: number };
  };
  const prompt = b.messages?.[0]?.content_block?.[0]?.content?.text_block?.text ?? '';
  return {
    prompt,
    flags: {
      deepThink: b.option?.need_deep_think === 1,
      webSearch: b.option?.need_web_search === 1,
    },
  };
}

export async function startDoubaoReplica(
  opts: ReplicaOptions & { controls?: Controls } = {},
): Promise<DoubaoReplica> {
  const latencyMs = opts.latencyMs ?? 5;
  const signKey = token();
  const sessions = new Set<string>();
  const expired = new Set<string>();
  const msTokens = new Set<string>();
  /** QR tokens shown on login pages → confirmed by a phone (here: POST /__replica/login). */
  const qr = new Map<string, boolean>();
  const calls: DoubaoReplica['calls'] = [];
  const asked: Asked[] = [];
  let base = '';

  const setSession = (res: ServerResponse) => {
    const sid = token();
    sessions.add(sid);
    res.setHeader('set-cookie', [
      `sessionid=${sid}; Path=/; HttpOnly; SameSite=Lax`,
      `sid_tt=${sid}; Path=/; HttpOnly; SameSite=Lax`,
    ]);
  };

  const page = async (req: IncomingMessage, res: ServerResponse) => {
    const sid = cookies(req).sessionid ?? '';
    const qrToken = token();
    qr.set(qrToken, false);
    const msToken = token();
    msTokens.add(msToken);
    const html = chatPageHtml({
      loggedIn: sessions.has(sid) || expired.has(sid),
      qrDataUrl: await QRCode.toDataURL(`${base}/passport/web/qrconnect?token=${qrToken}`),
      qrToken,
      msToken,
      controls: opts.controls ?? 'switches',
    });
    sendHtml(res, driftPage(html, opts.drift ?? 'none'));
  };

  const chat = async (req: IncomingMessage, res: ServerResponse, url: URL, old: boolean) => {
    const body = await readBody(req);
    const record = (status: number) => calls.push({ path: url.pathname, body, status });
    const signature = url.searchParams.get('a_bogus') ?? '';
    const msToken = url.searchParams.get('msToken') ?? '';
    if (signature !== aBogus(signKey, signedQuery(url.search), body) || !msTokens.has(msToken)) {
      record(403);
      return sendJson(res, { code: 710020001, msg: 'a_bogus verification failed' }, 403);
    }
    const sid = cookies(req).sessionid ?? '';
    const { prompt, flags } = readRequest(body);
    const variant = variantOf(prompt);
    if ((!sessions.has(sid) && !expired.has(sid)) || variant === 'login_wall') {
      record(401);
      return sendJson(res, { code: 710012001, msg: 'not login' }, 401);
    }
    if (variant === 'old_format' && !old) {
      record(307);
      res.writeHead(307, { location: `/samantha/chat/completion${url.search}` }).end();
      return;
    }
    const c: Conversation = {
      conversationId: String(38_418_988_375_786_754n + BigInt(calls.length)),
      sectionId: '38418988375787010',
      localConversationId: 'local_1241289749163902',
    };
    asked.push({ prompt, mode: modeOf(flags.deepThink, flags.webSearch) });
    const answer = replicaAnswer(prompt, flags);
    let frames: string[];
    if (expired.has(sid) || variant === 'expired')
      frames = streamError(c, 710012000, 'user invalid');
    else if (variant === 'captcha')
      frames = streamError(c, 710022004, 'rate limited', {
        code: '10000',
        type: 'verify',
        subtype: 'slide',
      });
    else if (variant === 'rate_limit')
      frames = streamError(c, 710022002, '当前服务访问频繁，请稍后再试');
    else if (old) frames = framesSamantha(answer, c);
    else if (variant === 'refusal')
      frames = frames2026(
        prompt,
        { ...answer, text: REFUSAL_TEXT, cards: [], videos: [], followUps: [] },
        c,
      );
    else
      frames = driftDoubaoStream(
        frames2026(prompt, answer, c, {
          unknownFrame: variant === 'unknown_frame',
          noEnd: prompt.includes('#doubao:no_end'),
          noStreamEnd: prompt.includes('#doubao:stall'),
          variant: streamVariantOf(prompt, STREAM_VARIANTS),
        }),
        opts.drift,
      );
    record(200);
    await firstByte(opts.drift ?? 'none');
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
    for (const frame of frames) {
      // Each frame leaves in two writes, cut inside it, as a network delivers them.
      const bytes = Buffer.from(frame);
      const cut = Math.floor(bytes.length / 2);
      res.write(bytes.subarray(0, cut));
      await sleep(latencyMs);
      res.write(bytes.subarray(cut));
      await sleep(latencyMs);
    }
    // A stalled stream stays open without a byte until the client gives up.
    if (prompt.includes('#doubao:stall'))
      await new Promise((r) => {
        const timer = setTimeout(r, 60_000);
        res.once('close', () => r(clearTimeout(timer)));
      });
    res.end();
  };

  const site = await startSite(
    [
      // The start page moved: /chat/ redirects, or is gone and the root redirects.
      ...chatPathRoutes(opts.drift ?? 'none', {
        entry: ['/chat/', '/chat'],
        moved: '/chat/new-thread',
        page,
        root: 'redirect',
        title: '豆包',
      }),
      { method: 'GET', path: /^\/(chat\/?)?$/, handle: page },
      {
        method: 'GET',
        path: '/static/samantha-flow-worker.js',
        handle: (_req, res) => {
          const js = workerScript(signKey);
          res.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8' }).end(js);
        },
      },
      {
        method: 'POST',
        path: '/chat/completion',
        handle: (req, res, url) => chat(req, res, url, false),
      },
      {
        method: 'POST',
        path: '/samantha/chat/completion',
        handle: (req, res, url) => chat(req, res, url, true),
      },
      {
        method: 'GET',
        path: '/passport/web/check_qrconnect/',
        handle: (_req, res, url) => {
          const t = url.searchParams.get('token') ?? '';
          if (qr.get(t) !== true)
            return sendJson(res, { data: { status: qr.has(t) ? 'new' : 'expired' } });
          qr.delete(t);
          setSession(res);
          sendJson(res, { data: { status: 'confirmed', redirect_url: '/chat/' } });
        },
      },
      {
        // Test-only: a phone confirms the QR codes shown (or the one named), and a
        // client posting here directly gets the session cookies too.
        method: 'POST',
        path: '/__replica/login',
        handle: (_req, res, url) => {
          const named = url.searchParams.get('token');
          for (const t of qr.keys()) if (!named || named === t) qr.set(t, true);
          setSession(res);
          sendJson(res, { ok: true });
        },
      },
    ],
    opts.port,
  );
  base = site.url;

  const state = (sid: string) =>
    storageStateFor(site.url, { cookies: { sessionid: sid, sid_tt: sid } });
  return {
    url: site.url,
    site,
    calls,
    asked,
    storageState() {
      const sid = token();
      sessions.add(sid);
      return state(sid);
    },
    expiredStorageState() {
      const sid = token();
      expired.add(sid);
      return state(sid);
    },
    close: () => site.close(),
  };
}
