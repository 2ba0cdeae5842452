/**
 * A local replica of www.perplexity.ai (loopback only): the home page with
 * the composer's controls and its own script, the sign-in dialog, and the
 * site's paths in their wire format: `GET /api/auth/session` (NextAuth's
 * session from the `next-auth.session-token` cookie, the name NextAuth gives it
 * over plain http (the site's own, over https: `__Secure-next-auth.session-token`); `{}` for a
 * visitor) and `POST /rest/sse/perplexity_ask` (the session cookie, the
 * page's `params`; the SSE frames of frames.ts). Each `storageState()` is a
 * new account's login.
 *
 * Misbehaviour by prompt directive (`#replica:<variant>`): the common ones
 * (`login_wall` and `expired` a 401; `captcha` Cloudflare's challenge page
 * with HTTP 403; `rate_limit` a 429), plus `quota` (the Pro-search limit in
 * the stream), `no_end`, and the stream variants of frames.ts. The drift
 * every replica takes (replicas/common/drift.ts) is chosen when it starts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
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
  runOf,
  serveReplica,
  streamKindOf,
  type AskingReplica,
  type ReplicaOptions,
} from '../common/replica.js';
import { askedMode } from '../../crawler/platforms/perplexity/web/mode.js';
import { driftPerplexityStream } from './stream-drift.js';
import { chatFrames, STREAM_VARIANTS, type StreamKind } from './frames.js';
import { chatPage } from './pages.js';

export type PerplexityReplica = AskingReplica;

/**
 * NextAuth's session cookie as a plain-http origin gets it: the site's own is
 * `__Secure-next-auth.session-token` (NextAuth adds the prefix on https only).
 */
export const SESSION_COOKIE = 'next-auth.session-token';
const UNAUTHORIZED = { detail: 'Unauthorized: please sign in again' };
/** Cloudflare's challenge page, as a blocked request gets it (its title is the kit's sign). */
export const CHALLENGE_PAGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head>
<body><h1>www.perplexity.ai</h1><p>Verify you are human by completing the action below.</p>
<script src="https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>`;

const streamKind = (prompt: string) =>
  streamKindOf<StreamKind>(prompt, STREAM_VARIANTS, { no_end: 'no_end', quota: 'quota' });

export async function startPerplexityReplica(
  opts: ReplicaOptions = {},
): Promise<PerplexityReplica> {
  const { latency, drift, asked } = runOf(opts);
  /** Each login the replica handed out (a storage state is one account): session token → user id. */
  const users = new Map<string, string>();
  const expiredToken = randomBytes(24).toString('hex');
  const userOf = (req: IncomingMessage) => users.get(cookies(req)[SESSION_COOKIE] ?? '');

  const page = (_q: IncomingMessage, res: ServerResponse) =>
    sendHtml(res, driftPage(chatPage(), drift));

  const routes: Route[] = [
    ...chatPathRoutes(drift, {
      entry: ['/'],
      moved: '/home',
      page,
      root: 'page',
      title: 'Perplexity',
    }),
    { method: 'GET', path: /^\/(?:search\/[^/]+)?$/, handle: page },
    {
      method: 'GET',
      path: '/api/auth/session',
      handle: (req, res) => {
        const id = userOf(req);
        sendJson(res, id ? { user: { id, name: 'Replica User', email: `${id}@example.com` } } : {});
      },
    },
    {
      method: 'POST',
      path: '/rest/sse/perplexity_ask',
      handle: async (req, res) => {
        const raw = await readBody(req);
        const body = jsonBody<{ query_str?: unknown; params?: unknown }>(raw);
        if (body === undefined) return sendJson(res, { detail: 'invalid body' }, 400);
        const prompt = typeof body.query_str === 'string' ? body.query_str : '';
        const variant = variantOf(prompt);
        if (variant === 'captcha') return sendHtml(res, CHALLENGE_PAGE, 403);
        if (!userOf(req) || variant === 'expired' || variant === 'login_wall')
          return sendJson(res, UNAUTHORIZED, 401);
        if (variant === 'rate_limit')
          return sendJson(res, { detail: 'Too many requests, slow down' }, 429);
        const mode: Mode | undefined = askedMode(raw);
        if (!mode) return sendJson(res, { detail: 'params.model_preference is required' }, 400);
        asked.push({ prompt, mode });
        await sendEventStream(
          res,
          driftPerplexityStream(chatFrames(prompt, mode, streamKind(prompt)), drift),
          latency,
          drift,
        );
      },
    },
  ];

  const served = await serveReplica(routes, opts.port, (url) => {
    const state = (t: string) => storageStateFor(url, { cookies: { [SESSION_COOKIE]: t } });
    return {
      // A new account's login each time, as each real account has its own session.
      storageState: () => {
        const token = randomBytes(24).toString('hex');
        users.set(token, `replica-user-${users.size + 1}-${randomUUID().slice(0, 8)}`);
        return state(token);
      },
      expiredStorageState: () => state(expiredToken),
    };
  });
  return { ...served, asked };
}
