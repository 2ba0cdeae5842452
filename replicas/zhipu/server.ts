/**
 * A local replica of chatglm.cn (loopback only): the chat page with the
 * site's controls and its own script, the login dialog, and the site's API
 * paths in their wire format: `POST /chatglm/user-api/user/refresh` (the
 * `chatglm_refresh_token` cookie exchanged for an access token; 40102 when
 * the site no longer takes it) and `POST /chatglm/backend-api/assistant/stream`
 * (the access token, the page's `X-Sign` / `X-Nonce` / `X-Timestamp`
 * checked, a bad signature HTTP 400; the SSE snapshots of frames.ts). Each
 * `storageState()` is a new account's login. One live stream per account,
 * as the site allows: a second chat call of the account while its first
 * streams is refused.
 *
 * Misbehaviour by prompt directive (`#replica:<variant>`): the common ones,
 * plus `busy` (the account's one stream taken), `quota` (the daily limit),
 * `no_end`, and the stream variants of frames.ts. The drift every replica
 * takes (replicas/common/drift.ts) is chosen when it starts.
 */
import { createHash, randomBytes } from 'node:crypto';
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
import { driftZhipuStream } from './stream-drift.js';
import { chatFrames, STREAM_VARIANTS, type StreamKind } from './frames.js';
import { chatPage } from './pages.js';

export interface ZhipuReplica extends AskingReplica {
  /** How many chat calls the one-live-stream rule refused. */
  readonly refusedBusy: number;
}

/** The page's signing secret (page-script.ts), as the site's own is built into its page. */
const SECRET = 'replica-sign-secret';
const SIGNATURE_MS = 5 * 60_000;
const EXPIRED = { code: 40102, message: '登录已过期，请重新登录 (40102)' };
const BUSY = { code: 10035, message: '上一个回答正在生成中，请稍后再试' };

interface ChatBody {
  conversation_id?: unknown;
  messages?: { content?: { type?: string; text?: unknown }[] }[];
  meta_data?: { chat_mode?: unknown; is_networking?: unknown };
}

/** Which mode the page asked for: `chat_mode: "zero"` thinking, `is_networking` search. */
export function requestedMode(body: ChatBody): Mode {
  const think = body.meta_data?.chat_mode === 'zero';
  const search = body.meta_data?.is_networking === true;
  return modeOf(think, search);
}

const streamKind = (prompt: string) =>
  streamKindOf<StreamKind>(prompt, STREAM_VARIANTS, { no_end: 'no_end' });

export async function startZhipuReplica(opts: ReplicaOptions = {}): Promise<ZhipuReplica> {
  const { latency, drift, asked } = runOf(opts);
  /** Each login the replica handed out (a storage state is one account): refresh token → user. */
  const users = new Map<string, string>();
  const expiredToken = randomBytes(24).toString('hex');
  /** Access tokens the refresh gave out, with the user each belongs to. */
  const accessTokens = new Map<string, string>();
  const usedNonces = new Set<string>();
  /** Users with a stream running now: the site allows one each. */
  const live = new Set<string>();
  let refusedBusy = 0;

  const signatureFault = (req: IncomingMessage): string | undefined => {
    const ts = String(req.headers['x-timestamp'] ?? '');
    const nonce = req.headers['x-nonce'];
    const sign = req.headers['x-sign'];
    if (!ts || typeof nonce !== 'string' || typeof sign !== 'string') return 'unsigned request';
    if (Math.abs(Date.now() - Number(ts)) > SIGNATURE_MS) return 'stale signature';
    if (usedNonces.has(nonce)) return 'replayed nonce';
    const want = createHash('sha256').update(`${ts}-${nonce}-${SECRET}`).digest('hex').slice(0, 32);
    if (want !== sign) return 'bad signature';
    usedNonces.add(nonce);
    return undefined;
  };

  const page = (_q: IncomingMessage, res: ServerResponse) =>
    sendHtml(res, driftPage(chatPage(), drift));

  const routes: Route[] = [
    ...chatPathRoutes(drift, {
      entry: ['/main/alltoolsdetail'],
      moved: '/main/chat',
      page,
      root: 'redirect',
      title: '智谱清言',
    }),
    { method: 'GET', path: '/', handle: page },
    { method: 'GET', path: /^\/main\/(alltoolsdetail|chat)$/, handle: page },
    {
      method: 'POST',
      path: '/chatglm/user-api/user/refresh',
      handle: async (req, res) => {
        await readBody(req);
        const refresh = cookies(req).chatglm_refresh_token ?? '';
        const user = users.get(refresh);
        if (!user) return sendJson(res, { status: 40102, message: EXPIRED.message }, 401);
        const access = randomBytes(24).toString('hex');
        accessTokens.set(access, user);
        sendJson(res, {
          status: 0,
          message: 'success',
          result: { access_token: access, refresh_token: refresh },
        });
      },
    },
    {
      method: 'POST',
      path: '/chatglm/backend-api/assistant/stream',
      handle: async (req, res) => {
        const raw = await readBody(req);
        const bearer = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
        const user = bearer && accessTokens.get(bearer);
        if (!user) return sendJson(res, EXPIRED, 401);
        const fault = signatureFault(req);
        if (fault) return sendJson(res, { code: 400, message: fault }, 400);
        const body = jsonBody<ChatBody>(raw);
        if (body === undefined) return sendJson(res, { code: 400, message: 'invalid body' }, 400);
        const item = body.messages?.at(-1)?.content?.find((c) => c.type === 'text');
        const prompt = typeof item?.text === 'string' ? item.text : '';
        const variant = variantOf(prompt);
        if (variant === 'expired' || variant === 'login_wall') return sendJson(res, EXPIRED, 401);
        if (variant === 'captcha') return sendJson(res, { code: 10025, message: '请完成安全验证' });
        if (variant === 'rate_limit')
          return sendJson(res, { code: 10029, message: '请求过于频繁，请稍后再试' }, 429);
        if (/#replica:quota\b/.test(prompt))
          return sendJson(res, { code: 10014, message: '今日对话次数已达上限，请明天再来' });
        if (live.has(user) || /#replica:busy\b/.test(prompt)) {
          refusedBusy++;
          return sendJson(res, BUSY);
        }
        const mode = requestedMode(body);
        asked.push({ prompt, mode });
        const given = typeof body.conversation_id === 'string' ? body.conversation_id : '';
        const conversationId = given || randomBytes(12).toString('hex');
        live.add(user);
        try {
          await sendEventStream(
            res,
            driftZhipuStream(chatFrames(prompt, mode, streamKind(prompt), conversationId), drift),
            latency,
            drift,
          );
        } finally {
          live.delete(user);
        }
      },
    },
  ];

  const served = await serveReplica(routes, opts.port, (url) => {
    const state = (t: string, user: string) =>
      storageStateFor(url, { cookies: { chatglm_refresh_token: t, chatglm_user_id: user } });
    return {
      // A new account's login each time, as each real account has its own refresh token.
      storageState: () => {
        const token = randomBytes(24).toString('hex');
        const user = `replica-user-${users.size + 1}`;
        users.set(token, user);
        return state(token, user);
      },
      expiredStorageState: () => state(expiredToken, 'replica-user-expired'),
    };
  });
  return {
    ...served,
    asked,
    get refusedBusy() {
      return refusedBusy;
    },
  };
}
