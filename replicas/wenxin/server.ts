/**
 * A local replica of yiyan.baidu.com (loopback only): the chat page with the
 * site's controls and its own script, Baidu's passport layer (SMS form and a
 * QR code for the Baidu app) and the passport page, and the site's API paths
 * in their wire format: `POST /eb/user/info`, `POST /eb/session/new`,
 * `GET /eb/acs/config` (the Acs-Token's inputs, which change irregularly)
 * and `POST /eb/chat/conversation/v2` (cookies `BAIDUID` / `BDUSS_BFESS`,
 * the page-computed `Acs-Token` checked: present, equal to the body's
 * `sign`, made from the inputs handed out now or just before, fresh, over
 * the text it came with, single use; a call without one is refused as the
 * site refuses it, so only the page can make it), answering the SSE stream of
 * frames.ts or an HTTP 200 `{code, msg, data}` error.
 *
 * Misbehaviour by prompt directive (`#replica:<variant>`): the common ones
 * (`captcha` is the slider), plus `rotate_captcha` (the rotating-image
 * verification), `quota` (the daily limit), `no_end` and the stream
 * variants. The page's own drift (pages.ts PAGE_VARIANTS) is chosen with
 * `POST /__replica/page-variant`; the drift every replica takes
 * (replicas/common/drift.ts) when it starts. `passportPage: true` sends a
 * logged-out visitor to Baidu's passport page instead of the logged-out chat.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import type { Mode } from '../../services/shared/platforms.js';
import {
  cookies,
  readBody,
  redirect,
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
import { driftWenxinStream } from './stream-drift.js';
import type { Model } from './answers.js';
import { chatFrames, STREAM_VARIANTS, type StreamKind } from './frames.js';
import { chatPage, PAGE_VARIANTS, type PageVariant } from './pages.js';
import { passportPage } from './passport.js';

export interface WenxinReplica extends AskingReplica {
  /** Why each refused chat call was refused (an Acs-Token fault), in order. */
  readonly refused: string[];
  /** Changes the Acs-Token's inputs now, as the site does at irregular times. */
  rotateAcs(): void;
}

const MODELS: readonly Model[] = ['EB45T', 'EB5', 'X1T'];
const NOT_LOGGED_IN = { code: 4001, msg: '请先登录', data: null };
const EXPIRED = { code: 4002, msg: '登录已失效，请重新登录', data: null };
/** How long an Acs-Token's timestamp stays good. */
const TOKEN_MS = 5 * 60_000;

interface ChatBody {
  sessionId?: unknown;
  text?: unknown;
  model?: unknown;
  search?: unknown;
  timestamp?: unknown;
  sign?: unknown;
}

/** Which model and mode the page asked for: `model` names the ERNIE version, X1 thinks. */
export function requestedOf(body: ChatBody): { model: Model; mode: Mode } {
  const model = MODELS.find((m) => m === body.model) ?? 'EB45T';
  const think = model === 'X1T';
  const search = body.search === 1;
  return { model, mode: modeOf(think, search) };
}

const streamKind = (prompt: string) =>
  streamKindOf<StreamKind>(prompt, STREAM_VARIANTS, { no_end: 'no_end' });

/** The site's error for a prompt's directive, before any answer; undefined: it answers. */
function refusalOf(prompt: string): Record<string, unknown> | undefined {
  const own = /#replica:(rotate_captcha|quota)\b/.exec(prompt)?.[1];
  if (own === 'rotate_captcha')
    return { code: 2001, msg: '请完成安全验证', data: { verifyType: 'rotate' } };
  if (own === 'quota') return { code: 4006, msg: '今日对话次数已达上限，请明天再来', data: null };
  const v = variantOf(prompt);
  if (v === 'captcha') return { code: 2001, msg: '请完成安全验证', data: { verifyType: 'slide' } };
  if (v === 'rate_limit') return { code: 4005, msg: '当前提问人数过多，请稍后再试', data: null };
  return undefined;
}

export async function startWenxinReplica(
  opts: ReplicaOptions & { passportPage?: boolean } = {},
): Promise<WenxinReplica> {
  const { latency, drift, asked } = runOf(opts);
  const refused: string[] = [];
  const bduss = randomBytes(24).toString('base64url');
  const expiredBduss = randomBytes(24).toString('base64url');
  const baiduid = `${randomBytes(16).toString('hex').toUpperCase()}:FG=1`;
  const sessions = new Set<string>();
  const usedTokens = new Set<string>();
  /** The Acs-Token's inputs now and just before (a page that fetched them a moment ago). */
  let acs = { version: 1, seed: randomBytes(12).toString('hex') };
  let previousAcs: typeof acs | undefined;
  const rotateAcs = () => {
    previousAcs = acs;
    acs = { version: acs.version + 1, seed: randomBytes(12).toString('hex') };
  };
  let pageVariant: PageVariant = 'default';
  let base = '';

  const loggedIn = (req: IncomingMessage) => cookies(req).BDUSS_BFESS === bduss;
  const sessionCookies = [`BAIDUID=${baiduid}; Path=/`, `BDUSS_BFESS=${bduss}; Path=/; HttpOnly`];

  /** What is wrong with the call's Acs-Token; undefined when the page made it just now. */
  const tokenFault = (req: IncomingMessage, body: ChatBody): string | undefined => {
    const header = req.headers['acs-token'];
    if (typeof header !== 'string' || header === '') return 'no Acs-Token';
    if (header !== body.sign) return 'Acs-Token and sign differ';
    const [version, ts, sum] = header.split(':');
    const inputs = [acs, previousAcs].find((a) => a && String(a.version) === version);
    if (!inputs) return 'Acs-Token made from inputs no longer given';
    if (Number(ts) !== body.timestamp || Math.abs(Date.now() - Number(ts)) > TOKEN_MS)
      return 'stale Acs-Token';
    if (usedTokens.has(header)) return 'replayed Acs-Token';
    const text = typeof body.text === 'string' ? body.text : '';
    const want = createHash('sha256')
      .update(`${inputs.seed}|${cookies(req).BAIDUID ?? ''}|${ts}|${text}`)
      .digest('hex');
    if (want !== sum) return 'bad Acs-Token';
    usedTokens.add(header);
    return undefined;
  };

  const page = (req: IncomingMessage, res: ServerResponse) =>
    opts.passportPage && !loggedIn(req)
      ? redirect(res, '/passport/login')
      : sendHtml(res, driftPage(chatPage(pageVariant), drift));

  const chat = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const body = jsonBody<ChatBody>(raw);
    if (body === undefined) return sendJson(res, { code: 400, msg: '参数错误', data: null });
    const prompt = typeof body.text === 'string' ? body.text : '';
    const variant = variantOf(prompt);
    if (!loggedIn(req) || variant === 'login_wall') return sendJson(res, NOT_LOGGED_IN);
    if (variant === 'expired') return sendJson(res, EXPIRED);
    const fault = tokenFault(req, body);
    if (fault) {
      refused.push(fault);
      return sendJson(res, { code: 4010, msg: `Acs-Token 校验失败（${fault}）`, data: null });
    }
    if (typeof body.sessionId !== 'string' || !sessions.has(body.sessionId))
      return sendJson(res, { code: 404, msg: '会话不存在', data: null });
    const error = refusalOf(prompt);
    if (error) return sendJson(res, error);
    const { model, mode } = requestedOf(body);
    asked.push({ prompt, mode });
    // The inputs change at irregular times: after about half the calls.
    if (Math.random() < 0.5) rotateAcs();
    const ids = { sessionId: body.sessionId, chatId: randomUUID() };
    const frames = chatFrames(prompt, mode, model, streamKind(prompt), ids);
    await sendEventStream(res, driftWenxinStream(frames, drift), latency, drift);
  };

  const routes: Route[] = [
    // The start page moved: the root a landing page whose 开始对话 leads to the chat.
    ...chatPathRoutes(drift, {
      entry: ['/'],
      moved: '/chat/new',
      page,
      root: 'page',
      title: '文心一言',
    }),
    { method: 'GET', path: '/', handle: page },
    { method: 'GET', path: /^\/chat(\/[\w-]+)?$/, handle: page },
    {
      method: 'GET',
      path: '/passport/login',
      handle: (_q, res) => sendHtml(res, driftPage(passportPage(), drift)),
    },
    {
      method: 'POST',
      path: '/eb/user/info',
      handle: async (req, res) => {
        await readBody(req);
        sendJson(res, {
          code: 0,
          msg: '',
          data: loggedIn(req) ? { isLogin: true, nickname: '文心复制用户' } : { isLogin: false },
        });
      },
    },
    {
      method: 'GET',
      path: '/eb/acs/config',
      handle: (_q, res) => sendJson(res, { code: 0, msg: '', data: acs }),
    },
    {
      method: 'POST',
      path: '/eb/session/new',
      handle: async (req, res) => {
        await readBody(req);
        if (!loggedIn(req)) return sendJson(res, NOT_LOGGED_IN);
        const sessionId = randomUUID();
        sessions.add(sessionId);
        sendJson(res, { code: 0, msg: '', data: { sessionId } });
      },
    },
    { method: 'POST', path: '/eb/chat/conversation/v2', handle: chat },
    ...qrLoginRoutes({
      qrPath: '/__replica/passport-qr',
      statusPath: '/passport/qr-status',
      words: { title: '扫码登录', alt: '百度App扫码登录二维码', caption: '请使用百度App扫码登录' },
      size: 160,
      sessionCookies,
      drift,
      base: () => base,
    }),
    pageVariantRoute(PAGE_VARIANTS, (v) => (pageVariant = v)),
  ];

  const served = await serveReplica(routes, opts.port, (url) => {
    base = url;
    // BAIDUID is the device's, readable by the page's script; BDUSS_BFESS the session's.
    const state = (b: string): StorageState => {
      const s = storageStateFor(url, { cookies: { BAIDUID: baiduid, BDUSS_BFESS: b } });
      return {
        ...s,
        cookies: s.cookies.map((c) => (c.name === 'BAIDUID' ? { ...c, httpOnly: false } : c)),
      };
    };
    return { storageState: () => state(bduss), expiredStorageState: () => state(expiredBduss) };
  });
  return { ...served, asked, refused, rotateAcs };
}
