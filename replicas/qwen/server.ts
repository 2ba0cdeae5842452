/**
 * A local replica of Qwen's consumer site (loopback only): chat.qwen.ai by
 * default, or the domestic site (`site: 'domestic'`), with the chat page and
 * its own script, the sign-in page, and the site's API paths in their wire
 * format: `GET /api/v2/users/status`, `POST /api/v2/chats/new`, `POST
 * /api/v2/chat/completions?chat_id=…` (the JWT as Bearer, from localStorage
 * `token`), or the domestic `POST /dialog/conversation` (the
 * `tongyi_sso_ticket` cookie). Every chat call must carry the page's baxia
 * signatures (`bx-ua` over the body, `bx-umidtoken`): without them the WAF
 * answers its HTML slider page with HTTP 200, as the real one does. Errors
 * come in the site's JSON envelope with HTTP 200 and the real status in
 * `x-actual-status-code`.
 *
 * Misbehaviour by prompt directive (`#replica:<variant>`): the common ones
 * (replicas/common/site.ts; `old_format` is chat.qwen.ai's 2025 frames),
 * plus `blocked` (the WAF's access-denied page), `risk_control`
 * (`RGV587_ERROR::SM`), `quota` (the daily usage limit), `no_end`, and the
 * stream variants of frames.ts. The drift every replica takes
 * (replicas/common/drift.ts) is chosen when it starts.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Mode } from '../../services/shared/platforms.js';
import {
  cookies,
  readBody,
  sendEventStream,
  sendHtml,
  sendJson,
  storageStateFor,
  variantOf,
  type Route,
} from '../common/site.js';
import { chatPathRoutes } from '../common/chat-path.js';
import { driftPage } from '../common/drift.js';
import {
  jsonBody,
  modeOf,
  runOf,
  serveReplica,
  streamKindOf,
  type AskingReplica,
  type ReplicaOptions,
} from '../common/replica.js';
import { chatFrames, domesticFrames, STREAM_VARIANTS, type StreamKind } from './frames.js';
import { chatPage, SIGN_IN_PAGE, WAF_DENIED, WAF_SLIDER, type SiteKind } from './pages.js';
import { driftQwenStream } from './stream-drift.js';

export type QwenReplica = AskingReplica;

/** How long a signature's timestamp stays good. */
const SIGNATURE_MS = 5 * 60_000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The site's error envelope: HTTP 200, the real status in a header. */
function envelope(res: ServerResponse, status: number, code: string, details: string) {
  res.setHeader('x-actual-status-code', String(status));
  sendJson(res, { success: false, request_id: randomUUID(), data: { code, details } });
}

/** The prompt and the mode a chat call's body asks for, in either site's body. */
export function requestedOf(body: Obj): { prompt: string; mode: Mode } {
  if (Array.isArray(body.contents)) {
    const first: unknown = body.contents[0];
    const p = isObj(body.params) ? body.params : {};
    return {
      prompt: isObj(first) && typeof first.content === 'string' ? first.content : '',
      mode: modeOf(p.deepThink === true, p.searchType === 'web'),
    };
  }
  const list = Array.isArray(body.messages) ? body.messages.filter(isObj) : [];
  const m = list.at(-1) ?? {};
  const config = isObj(m.feature_config) ? m.feature_config : {};
  return {
    prompt: typeof m.content === 'string' ? m.content : '',
    mode: modeOf(config.thinking_enabled === true, m.chat_type === 'search'),
  };
}

const streamKind = (prompt: string) =>
  streamKindOf<StreamKind>(
    prompt,
    STREAM_VARIANTS,
    { no_end: 'no_end' },
    { old_format: 'format_2025', refusal: 'refusal', unknown_frame: 'unknown_frame' },
  );

export async function startQwenReplica(
  opts: ReplicaOptions & { site?: SiteKind } = {},
): Promise<QwenReplica> {
  const { latency, drift, asked } = runOf(opts);
  const kind = opts.site ?? 'intl';
  const token = `eyJhbGciOiJIUzI1NiJ9.${randomBytes(18).toString('base64url')}.replica`;
  const expiredToken = `eyJhbGciOiJIUzI1NiJ9.${randomBytes(18).toString('base64url')}.expired`;
  const ticket = randomBytes(16).toString('hex');
  const chats = new Set<string>();

  const loggedIn = (req: IncomingMessage) => {
    if (kind === 'domestic') return cookies(req).tongyi_sso_ticket === ticket;
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return (bearer ?? cookies(req).token) === token;
  };
  const unauthorized = (res: ServerResponse) =>
    envelope(res, 401, 'Unauthorized', 'You are not authenticated, please log in again.');

  /** The page's baxia signature: fresh, over the body it came with, tied to its umid token. */
  const signatureFault = (req: IncomingMessage, raw: string): string | undefined => {
    const umid = req.headers['bx-umidtoken'];
    const m = /^231!(\d+)\.([0-9a-f]{40})$/.exec(String(req.headers['bx-ua'] ?? ''));
    if (typeof umid !== 'string' || !m) return 'unsigned request';
    if (Math.abs(Date.now() - Number(m[1])) > SIGNATURE_MS) return 'stale signature';
    const want = createHash('sha256').update(`${m[1]}${umid}${raw}`).digest('hex').slice(0, 40);
    return want === m[2] ? undefined : 'bad signature';
  };

  const page = (_q: IncomingMessage, res: ServerResponse) =>
    sendHtml(res, driftPage(chatPage(kind), drift));

  const chatCall = async (req: IncomingMessage, res: ServerResponse, chatId: string) => {
    const raw = await readBody(req);
    const body = jsonBody<unknown>(raw);
    if (!isObj(body)) return envelope(res, 400, 'Bad_Request', 'invalid body');
    const r = requestedOf(body);
    const variant = variantOf(r.prompt);
    if (!loggedIn(req) || variant === 'expired' || variant === 'login_wall')
      return unauthorized(res);
    // The WAF answers a call without the page's signatures before the application sees it.
    if (signatureFault(req, raw) || variant === 'captcha') return sendHtml(res, WAF_SLIDER);
    if (/#replica:blocked\b/.test(r.prompt)) return sendHtml(res, WAF_DENIED);
    if (/#replica:risk_control\b/.test(r.prompt))
      return sendJson(res, { ret: ['RGV587_ERROR::SM::哎哟喂,被挤爆啦,请稍后重试'], data: {} });
    if (kind === 'intl' && !chats.has(chatId))
      return envelope(res, 404, 'CHAT_NOT_FOUND', 'The chat does not exist.');
    if (variant === 'rate_limit')
      return envelope(res, 429, 'RateLimited', '请求过于频繁，请稍后再试');
    if (/#replica:quota\b/.test(r.prompt))
      return envelope(res, 429, 'RateLimited', 'You have reached the daily usage limit.');
    asked.push({ prompt: r.prompt, mode: r.mode });
    const k = streamKind(r.prompt);
    const frames =
      kind === 'domestic'
        ? domesticFrames(r.prompt, r.mode, k)
        : driftQwenStream(chatFrames(r.prompt, r.mode, k, chatId), drift);
    await sendEventStream(res, frames, latency, drift);
  };

  const routes: Route[] = [
    // The start page moved: the root becomes a landing page whose link leads to /chat.
    ...chatPathRoutes(drift, { entry: ['/'], moved: '/chat', page, root: 'page', title: 'Qwen' }),
    { method: 'GET', path: '/', handle: page },
    { method: 'GET', path: /^\/c\/[\w-]+$/, handle: page },
    { method: 'GET', path: '/auth', handle: (_q, res) => sendHtml(res, SIGN_IN_PAGE) },
    {
      method: 'GET',
      path: '/api/v2/users/status',
      handle: (req, res) =>
        loggedIn(req) ? sendJson(res, { success: true, data: true }) : unauthorized(res),
    },
    {
      // The sign-in form (a person's login): any address and password get the account's token.
      method: 'POST',
      path: '/api/v1/auths/signin',
      handle: async (req, res) => {
        await readBody(req);
        const set = [`token=${token}; Path=/`];
        if (kind === 'domestic') set.push(`tongyi_sso_ticket=${ticket}; Path=/; HttpOnly`);
        res.setHeader('set-cookie', set);
        sendJson(res, { token, token_type: 'Bearer' });
      },
    },
    {
      method: 'POST',
      path: '/api/v2/chats/new',
      handle: async (req, res) => {
        await readBody(req);
        if (!loggedIn(req)) return unauthorized(res);
        const id = randomUUID();
        chats.add(id);
        sendJson(res, { success: true, request_id: randomUUID(), data: { id } });
      },
    },
    {
      method: 'POST',
      path: '/api/v2/chat/completions',
      handle: (req, res, url) => chatCall(req, res, url.searchParams.get('chat_id') ?? ''),
    },
    {
      method: 'POST',
      path: '/dialog/conversation',
      handle: (req, res) => chatCall(req, res, ''),
    },
  ];

  const served = await serveReplica(routes, opts.port, (url) => {
    const state = (jwt: string, sso: string) =>
      storageStateFor(url, {
        cookies: kind === 'domestic' ? { token: jwt, tongyi_sso_ticket: sso } : { token: jwt },
        localStorage: { token: jwt },
      });
    return {
      storageState: () => state(token, ticket),
      expiredStorageState: () => state(expiredToken, 'expired'),
    };
  });
  return { ...served, asked };
}
