/**
 * A local replica of chatgpt.com (loopback only): the chat page with the
 * site's controls and its own script, and the site's API paths in their
 * wire format: `GET /api/auth/session` (the `__Secure-next-auth.session-token`
 * cookie's session with its access token; `{}` signed out),
 * `POST /backend-api/sentinel/chat-requirements` (a single-use requirements
 * token and a proof-of-work challenge), and `POST /backend-api/f/conversation`
 * (older builds `/backend-api/conversation`): the access token, the
 * requirements token and the PAGE-COMPUTED proof checked (a call without
 * them, or with a wrong proof, is refused as the site refuses it), then the
 * SSE stream of frames.ts. Each `storageState()` is a new account's login.
 *
 * Misbehaviour by prompt directive (`#replica:<variant>`): the common ones
 * (`captcha` is Cloudflare's challenge page with HTTP 403, the page showing
 * its Turnstile dialog), plus `quota` (the plan's limit), `unusual` (the
 * "unusual activity" block), `no_end`, and the stream variants of
 * frames.ts. The drift every replica takes (replicas/common/drift.ts) is
 * chosen when it starts.
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
import { driftChatgptStream } from './stream-drift.js';
import { chatFrames, serialize, STREAM_VARIANTS, type StreamKind } from './frames.js';
import { CHALLENGE_PAGE, chatPage, type Widgets } from './pages.js';

export type ChatgptReplica = AskingReplica;

export const SESSION_COOKIE = '__Secure-next-auth.session-token';
/** The proof's difficulty: a hex prefix the hash must not exceed (about one try in sixteen). */
export const DIFFICULTY = '0fff';
const EXPIRED = {
  detail: {
    message: 'Your authentication token has expired. Please try signing in again.',
    type: 'invalid_request_error',
    code: 'token_expired',
  },
};

interface ChatBody {
  conversation_id?: unknown;
  messages?: { content?: { parts?: unknown[] } }[];
  system_hints?: unknown;
}

/** Which mode the page asked for: `system_hints` with `reason` and `search`. */
export function requestedMode(body: ChatBody): Mode {
  const hints = Array.isArray(body.system_hints) ? body.system_hints : [];
  const think = hints.includes('reason');
  const search = hints.includes('search');
  return modeOf(think, search);
}

/** Whether a proof answers a seed at the difficulty (the page's own computation). */
export function proofHolds(seed: string, proof: string, difficulty = DIFFICULTY): boolean {
  if (!proof.startsWith('gAAAAAB')) return false;
  const answer = proof.slice('gAAAAAB'.length);
  const hash = createHash('sha256')
    .update(seed + answer)
    .digest('hex');
  return hash.slice(0, difficulty.length) <= difficulty;
}

const streamKind = (prompt: string) =>
  streamKindOf<StreamKind>(prompt, STREAM_VARIANTS, { no_end: 'no_end' });

export async function startChatgptReplica(
  opts: ReplicaOptions & { widgets?: Widgets } = {},
): Promise<ChatgptReplica> {
  const { latency, drift, asked } = runOf(opts);
  /** Each login the replica handed out (a storage state is one account): session cookie → user. */
  const users = new Map<string, string>();
  const expiredSession = randomBytes(24).toString('hex');
  /** Access tokens the session gave out, with the user each belongs to. */
  const accessTokens = new Map<string, string>();
  /** Requirements tokens not yet spent, with their proof-of-work seed. */
  const requirements = new Map<string, { user: string; seed: string }>();

  const userOf = (req: IncomingMessage) => {
    const bearer = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    return bearer ? accessTokens.get(bearer) : undefined;
  };
  /** Why the sentinel headers do not hold; undefined when they do (the token is then spent). */
  const sentinelFault = (req: IncomingMessage, user: string): string | undefined => {
    const token = String(req.headers['openai-sentinel-chat-requirements-token'] ?? '');
    const issued = requirements.get(token);
    if (!issued || issued.user !== user) return 'missing or spent chat requirements token';
    requirements.delete(token);
    const proof = String(req.headers['openai-sentinel-proof-token'] ?? '');
    if (!proofHolds(issued.seed, proof)) return 'invalid proof of work';
    return undefined;
  };

  const page = (_q: IncomingMessage, res: ServerResponse) =>
    sendHtml(res, driftPage(chatPage(opts.widgets), drift));

  const conversation = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const user = userOf(req);
    if (!user) return sendJson(res, EXPIRED, 401);
    const fault = sentinelFault(req, user);
    if (fault) return sendJson(res, { detail: fault }, 403);
    const body = jsonBody<ChatBody>(raw);
    if (body === undefined) return sendJson(res, { detail: 'invalid body' }, 400);
    const part = body.messages?.at(-1)?.content?.parts?.[0];
    const prompt = typeof part === 'string' ? part : '';
    const variant = variantOf(prompt);
    if (variant === 'expired' || variant === 'login_wall') return sendJson(res, EXPIRED, 401);
    if (variant === 'captcha') return sendHtml(res, CHALLENGE_PAGE, 403);
    if (variant === 'rate_limit')
      return sendJson(
        res,
        { detail: "You've reached our limit of messages per hour. Please try again later." },
        429,
      );
    if (/#replica:quota\b/.test(prompt))
      return sendJson(
        res,
        { detail: { message: "You've hit the Free plan limit for GPT-5.", code: 'usage_cap' } },
        429,
      );
    if (/#replica:unusual\b/.test(prompt))
      return sendJson(
        res,
        { detail: 'Unusual activity has been detected from your device. Try again later.' },
        403,
      );
    asked.push({ prompt, mode: requestedMode(body) });
    const given = typeof body.conversation_id === 'string' ? body.conversation_id : '';
    const ids = { conversation: given || randomUUID(), user: randomUUID() };
    const frames = chatFrames(prompt, requestedMode(body), streamKind(prompt), ids);
    await sendEventStream(res, serialize(driftChatgptStream(frames, drift)), latency, drift);
  };

  const routes: Route[] = [
    ...chatPathRoutes(drift, {
      entry: ['/'],
      moved: '/chat',
      page,
      root: 'page',
      title: 'ChatGPT',
    }),
    { method: 'GET', path: /^\/(c\/[\w-]+)?$/, handle: page },
    {
      method: 'GET',
      path: '/api/auth/session',
      handle: (req, res) => {
        const user = users.get(cookies(req)[SESSION_COOKIE] ?? '');
        if (!user) return sendJson(res, {});
        const access = randomBytes(24).toString('hex');
        accessTokens.set(access, user);
        sendJson(res, {
          user: { id: user, name: 'Replica User', email: `${user}@example.com` },
          expires: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          accessToken: access,
          authProvider: 'auth0',
        });
      },
    },
    {
      method: 'POST',
      path: '/backend-api/sentinel/chat-requirements',
      handle: async (req, res) => {
        await readBody(req);
        const user = userOf(req);
        if (!user) return sendJson(res, EXPIRED, 401);
        const token = `gAAAAAB${randomBytes(24).toString('base64url')}`;
        const seed = String(Math.random());
        requirements.set(token, { user, seed });
        sendJson(res, {
          persona: 'chatgpt-paid',
          token,
          arkose: { required: false, dx: null },
          turnstile: { required: false, dx: null },
          proofofwork: { required: true, seed, difficulty: DIFFICULTY },
        });
      },
    },
    { method: 'POST', path: '/backend-api/f/conversation', handle: conversation },
    { method: 'POST', path: '/backend-api/conversation', handle: conversation },
  ];

  const served = await serveReplica(routes, opts.port, (url) => {
    const state = (session: string) =>
      storageStateFor(url, { cookies: { [SESSION_COOKIE]: session }, secure: true });
    return {
      // A new account's login each time, as each real account has its own session.
      storageState: () => {
        const session = randomBytes(24).toString('hex');
        users.set(session, `replica-user-${users.size + 1}`);
        return state(session);
      },
      expiredStorageState: () => state(expiredSession),
    };
  });
  return { ...served, asked };
}
