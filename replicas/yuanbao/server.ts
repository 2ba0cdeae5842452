/**
 * A local replica of yuanbao.tencent.com (loopback only): the chat page with
 * the site's controls and its own script, the WeChat QR login in a dialog,
 * and the site's API paths in their wire format: `GET /api/getuserinfo`,
 * `POST /api/user/agent/conversation/create`, `POST /api/chat/{id}`
 * (cookies `hy_user` / `hy_token`, the page's single-use signature headers
 * checked, the SSE stream of frames.ts) and
 * `POST /api/user/agent/conversation/v1/detail`.
 *
 * Misbehaviour by prompt directive (`#replica:<variant>`): the common ones,
 * plus `location_verify` (the location-verification message), `no_sources`
 * (the docs only in the conversation's detail), `late_events`,
 * `early_events`, `renamed_field` and `no_end`. The page's own drift (pages.ts
 * PAGE_VARIANTS: hashed classes, controls as other widgets) is chosen with
 * `POST /__replica/page-variant`, as a site's new build would be; the drift
 * every replica takes (replicas/common/drift.ts) is chosen when it starts.
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
import { pageVariantRoute } from '../common/page-variant.js';
import { qrLoginRoutes } from '../common/qr-login.js';
import {
  jsonBody,
  modeOf,
  runOf,
  serveReplica,
  streamKindOf,
  type AskingReplica,
  type ReplicaOptions,
} from '../common/replica.js';
import { driftYuanbaoStream } from './stream-drift.js';
import type { Model } from './answers.js';
import { chatFrames, conversationDetail, STREAM_VARIANTS, type StreamKind } from './frames.js';
import { CAPTCHA_PAGE, chatPage, PAGE_VARIANTS, type PageVariant } from './pages.js';

export type YuanbaoReplica = AskingReplica;

const USER = 'replica-user';
const NOT_REGISTERED = { error: { code: '20003', message: '用户未注册' } };
/** How long a signature's timestamp stays good. */
const SIGNATURE_MS = 5 * 60_000;

interface ChatBody {
  prompt?: unknown;
  chatModelId?: unknown;
  supportFunctions?: unknown;
}

/** Which model and mode the page asked for: `chatModelId` names both model and thinking. */
export function requestedOf(body: ChatBody): { model: Model; mode: Mode } {
  const id = typeof body.chatModelId === 'string' ? body.chatModelId : '';
  const model: Model = id.startsWith('deep_seek') ? 'deepseek' : 'hunyuan';
  const think = id === 'deep_seek' || id === 'hunyuan_t1';
  const search =
    Array.isArray(body.supportFunctions) && body.supportFunctions.includes('supportInternetSearch');
  return { model, mode: modeOf(think, search) };
}

const streamKind = (prompt: string) =>
  streamKindOf<StreamKind>(prompt, STREAM_VARIANTS, {
    location_verify: 'location',
    no_end: 'no_end',
  });

export async function startYuanbaoReplica(opts: ReplicaOptions = {}): Promise<YuanbaoReplica> {
  const { latency, drift, asked } = runOf(opts);
  const token = randomBytes(24).toString('base64');
  const expiredToken = randomBytes(24).toString('base64');
  const usedKeys = new Set<string>();
  const conversations = new Map<string, { prompt: string; mode: Mode; model: Model } | null>();
  let pageVariant: PageVariant = 'default';
  let base = '';

  const loggedIn = (req: IncomingMessage) => {
    const c = cookies(req);
    return c.hy_user === USER && c.hy_token === token;
  };
  const sessionCookies = [
    `hy_user=${USER}; Path=/; HttpOnly`,
    `hy_token=${encodeURIComponent(token)}; Path=/; HttpOnly`,
    'hy_source=web; Path=/',
  ];

  /** The page's signature: fresh, single use, over the body it came with. */
  const signatureFault = (req: IncomingMessage, raw: string): string | undefined => {
    const ts = Number(req.headers['x-timestamp']);
    const key = req.headers['x-uskey'];
    const sum = req.headers['x-bus-params-md5'];
    if (!Number.isFinite(ts) || typeof key !== 'string' || typeof sum !== 'string')
      return 'unsigned request';
    if (Math.abs(Date.now() - ts) > SIGNATURE_MS) return 'stale signature';
    if (usedKeys.has(key)) return 'replayed signature';
    const want = createHash('sha256').update(`${ts}${key}${raw}`).digest('hex').slice(0, 32);
    if (want !== sum) return 'bad signature';
    usedKeys.add(key);
    return undefined;
  };

  const stream = (res: ServerResponse, frames: string[]) =>
    sendEventStream(res, frames, latency, drift);

  const page = (_q: IncomingMessage, res: ServerResponse) =>
    sendHtml(res, driftPage(chatPage(pageVariant), drift));

  const routes: Route[] = [
    // The start page moved as another description of the site has it: `/` and `/chat/<agentId>`.
    ...chatPathRoutes(drift, {
      entry: ['/chat'],
      moved: '/chat/naQivTmsDa',
      page,
      root: 'page',
      title: '腾讯元宝',
    }),
    { method: 'GET', path: '/', handle: page },
    { method: 'GET', path: /^\/chat(\/[\w-]+){0,2}$/, handle: page },
    {
      method: 'GET',
      path: '/api/getuserinfo',
      handle: (req, res) =>
        loggedIn(req)
          ? sendJson(res, { id: USER, nickname: '元宝复制用户', avatar: '' })
          : sendJson(res, NOT_REGISTERED, 401),
    },
    {
      method: 'POST',
      path: '/api/user/agent/conversation/create',
      handle: async (req, res) => {
        await readBody(req);
        if (!loggedIn(req)) return sendJson(res, NOT_REGISTERED, 401);
        const id = randomUUID();
        conversations.set(id, null);
        sendJson(res, { id });
      },
    },
    {
      method: 'POST',
      path: /^\/api\/chat\/[\w-]+$/,
      handle: async (req, res, url) => {
        const raw = await readBody(req);
        const id = url.pathname.split('/').pop()!;
        const body = jsonBody<ChatBody>(raw);
        if (body === undefined)
          return sendJson(res, { error: { code: '400', message: 'invalid body' } }, 400);
        const prompt = typeof body.prompt === 'string' ? body.prompt : '';
        const variant = variantOf(prompt);
        if (!loggedIn(req) || variant === 'expired' || variant === 'login_wall')
          return sendJson(res, NOT_REGISTERED, 401);
        const fault = signatureFault(req, raw);
        if (fault) return sendJson(res, { error: { code: '20010', message: fault } }, 403);
        if (!conversations.has(id))
          return sendJson(res, { error: { code: '404', message: 'no such conversation' } }, 404);
        if (variant === 'captcha')
          return sendJson(res, { error: { code: '20013', message: '请完成安全验证' } }, 403);
        if (variant === 'rate_limit')
          return sendJson(
            res,
            { error: { code: '20029', message: '今日请求过频，请稍后再试' } },
            429,
          );
        const { model, mode } = requestedOf(body);
        asked.push({ prompt, mode });
        conversations.set(id, { prompt, mode, model });
        await stream(
          res,
          driftYuanbaoStream(chatFrames(prompt, mode, model, streamKind(prompt)), drift),
        );
      },
    },
    {
      method: 'POST',
      path: '/api/user/agent/conversation/v1/detail',
      handle: async (req, res) => {
        const body = JSON.parse((await readBody(req)) || '{}') as { conversationId?: string };
        if (!loggedIn(req)) return sendJson(res, NOT_REGISTERED, 401);
        const conv = conversations.get(body.conversationId ?? '');
        if (!conv)
          return sendJson(res, { error: { code: '404', message: 'no such conversation' } }, 404);
        sendJson(res, conversationDetail(body.conversationId!, conv.prompt, conv.mode, conv.model));
      },
    },
    ...qrLoginRoutes({
      qrPath: '/__replica/wx-qr',
      statusPath: '/api/login/qr-status',
      words: { title: '微信登录', alt: '微信登录二维码', caption: '请使用微信扫一扫登录' },
      size: 180,
      sessionCookies,
      drift,
      base: () => base,
    }),
    pageVariantRoute(PAGE_VARIANTS, (v) => (pageVariant = v)),
    { method: 'GET', path: '/__replica/captcha', handle: (_q, res) => sendHtml(res, CAPTCHA_PAGE) },
  ];

  const served = await serveReplica(routes, opts.port, (url) => {
    base = url;
    const state = (t: string) =>
      storageStateFor(url, { cookies: { hy_user: USER, hy_token: t, hy_source: 'web' } });
    return { storageState: () => state(token), expiredStorageState: () => state(expiredToken) };
  });
  return { ...served, asked };
}
