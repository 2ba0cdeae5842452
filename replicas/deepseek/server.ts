/**
 * A local replica of chat.deepseek.com (loopback only): the sign-in page with
 * its QR code, the chat page with the site's DOM hooks and its own script,
 * and the site's API paths in their wire format:
 * `POST /api/v0/chat_session/create`, `POST /api/v0/chat/create_pow_challenge`,
 * `POST /api/v0/chat/completion` (Bearer `userToken`, `X-Ds-Pow-Response`
 * checked, the patch stream of frames.ts). `#replica:<variant>` in a prompt
 * makes it misbehave the site's way; `#replica:no_end` (this replica only)
 * cuts the stream before its end marker; the stream drift variants of
 * frames.ts (`STREAM_VARIANTS`) change the stream the way a site update does.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import QRCode from 'qrcode';
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import type { Mode } from '../../services/shared/platforms.js';
import {
  readBody,
  sendEventStream,
  sendHtml,
  sendJson,
  storageStateFor,
  variantOf,
  type Variant,
  type Route,
} from '../common/site.js';
import { chatPathRoutes } from '../common/chat-path.js';
import { driftPage } from '../common/drift.js';
import {
  jsonBody,
  modeOf,
  runOf,
  serveReplica,
  type AskingReplica,
  type ReplicaOptions,
} from '../common/replica.js';
import { driftDeepseekStream } from './stream-drift.js';
import { chatFrames, STREAM_VARIANTS, type StreamKind } from './frames.js';
import { streamVariantOf } from '../common/stream-variants.js';
import { chatPage, HCAPTCHA_PAGE, signInPage } from './pages.js';
import { PowIssuer } from './pow.js';

export interface DeepseekReplica extends AskingReplica {
  /** A logged-in session of `user` (default: the replica's own test user); one per user. */
  storageState(user?: string): StorageState;
}

const COMPLETION = '/api/v0/chat/completion';
const USER = 'replica-user';

const ok = (bizData: unknown) => ({
  code: 0,
  msg: '',
  data: { biz_code: 0, biz_msg: '', biz_data: bizData },
});
const INVALID_TOKEN = { code: 40003, msg: 'Authorization Failed (invalid token)', data: null };
const MISSING_TOKEN = { code: 40002, msg: 'Missing Token', data: null };

const requestedMode = (body: { thinking_enabled?: unknown; search_enabled?: unknown }): Mode =>
  modeOf(body.thinking_enabled === true, body.search_enabled === true);

const ICON = (host: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" rx="3" fill="#4d6bfe"/><text x="8" y="12" font-size="10" text-anchor="middle" fill="#fff">${host.replace(/^www\./, '')[0]!.toUpperCase()}</text></svg>`;

/** The stream a prompt asks for: the replica's own variants, then the common ones. */
function streamKind(prompt: string, variant: Variant | undefined): StreamKind {
  if (/#replica:no_end\b/.test(prompt)) return 'no_end';
  const drift = streamVariantOf(prompt, STREAM_VARIANTS);
  if (drift) return drift;
  if (variant === 'old_format') return '2025';
  if (variant === 'rate_limit' || variant === 'refusal' || variant === 'unknown_frame')
    return variant;
  return '2026';
}

export async function startDeepseekReplica(opts: ReplicaOptions = {}): Promise<DeepseekReplica> {
  const { latency, drift, asked } = runOf(opts);
  /** Session tokens by user: the test user's, and one per user a test asks a session of. */
  const sessions = new Map<string, string>();
  const sessionOf = (user: string) => {
    if (!sessions.has(user)) sessions.set(user, `ds-${randomBytes(16).toString('hex')}`);
    return sessions.get(user)!;
  };
  const userOf = (t: string) => [...sessions].find(([, s]) => s === t)?.[0];
  const token = sessionOf(USER);
  const expiredToken = `ds-expired-${randomBytes(8).toString('hex')}`;
  const pow = new PowIssuer();
  /** QR tickets: null until the (test-only) login confirms them. */
  const tickets = new Map<string, string | null>();
  let base = '';

  const bearer = (req: IncomingMessage) =>
    /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  /** The account's answer to an API call's token; null when it may go on. */
  const authFailure = (req: IncomingMessage): { status: number; body: unknown } | null => {
    const t = bearer(req);
    if (!t) return { status: 401, body: MISSING_TOKEN };
    if (userOf(t) === undefined) return { status: 200, body: INVALID_TOKEN };
    return null;
  };
  const guarded =
    (handle: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>) =>
    async (req: IncomingMessage, res: ServerResponse) => {
      const body = await readBody(req);
      const failure = authFailure(req);
      if (failure) return sendJson(res, failure.body, failure.status);
      await handle(req, res, body);
    };

  const html = (res: ServerResponse, text: string) => sendHtml(res, driftPage(text, drift));

  const stream = (res: ServerResponse, frames: string[]) =>
    sendEventStream(res, frames, latency, drift);

  const routes: Route[] = [
    // The start page moved: its entry is the root, so the root becomes a landing page.
    ...chatPathRoutes(drift, {
      entry: ['/'],
      moved: '/a/chat',
      page: (_q, res) => html(res, chatPage()),
      root: 'page',
      title: 'DeepSeek',
    }),
    { method: 'GET', path: '/', handle: (_q, res) => html(res, chatPage()) },
    {
      method: 'GET',
      path: /^\/a\/chat\/s\/[\w-]+$/,
      handle: (_q, res) => html(res, chatPage()),
    },
    {
      method: 'GET',
      path: '/sign_in',
      handle: async (_q, res) => {
        const ticket = randomUUID();
        tickets.set(ticket, null);
        const qr = await QRCode.toDataURL(`${base}/qr/${ticket}`, { margin: 1, width: 200 });
        html(res, signInPage(qr, ticket));
      },
    },
    {
      method: 'GET',
      path: '/api/v0/users/qr_login/status',
      handle: (_q, res, url) => {
        const t = tickets.get(url.searchParams.get('ticket') ?? '');
        if (t === undefined)
          return sendJson(res, { code: 40010, msg: 'QR code expired', data: null });
        sendJson(res, ok(t ? { status: 'confirmed', user_token: t } : { status: 'waiting' }));
      },
    },
    {
      // Test-only: confirms the newest (or the named) QR ticket, as a scan in the app would.
      method: 'POST',
      path: '/__replica/login',
      handle: async (req, res) => {
        const body = (JSON.parse((await readBody(req)) || '{}') ?? {}) as { ticket?: string };
        const ticket = body.ticket ?? [...tickets.keys()].pop();
        if (!ticket || !tickets.has(ticket)) return sendJson(res, { ok: false }, 404);
        tickets.set(ticket, token);
        sendJson(res, { ok: true });
      },
    },
    {
      method: 'GET',
      path: '/__replica/hcaptcha',
      handle: (_q, res) => sendHtml(res, HCAPTCHA_PAGE),
    },
    {
      method: 'GET',
      path: /^\/site-icons\/[\w.-]+$/,
      handle: (_q, res, url) => {
        const svg = ICON(url.pathname.split('/').pop()!);
        res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(svg);
      },
    },
    {
      method: 'GET',
      path: '/api/v0/users/current',
      handle: (req, res) => {
        const failure = authFailure(req);
        if (failure) return sendJson(res, failure.body, failure.status);
        const t = bearer(req)!;
        const user = userOf(t)!;
        sendJson(res, ok({ id: user, email: `${user}@example.com`, token: t }));
      },
    },
    {
      method: 'POST',
      path: '/api/v0/chat_session/create',
      handle: guarded((_q, res) =>
        sendJson(
          res,
          ok({ id: randomUUID(), seq_id: 1, title: null, inserted_at: Date.now() / 1000 }),
        ),
      ),
    },
    {
      method: 'POST',
      path: '/api/v0/chat/create_pow_challenge',
      handle: guarded((_q, res, body) => {
        const target = (JSON.parse(body || '{}') as { target_path?: string }).target_path;
        sendJson(res, ok({ challenge: pow.issue(target ?? COMPLETION) }));
      }),
    },
    {
      method: 'POST',
      path: COMPLETION,
      handle: async (req, res) => {
        const raw = await readBody(req);
        const body = jsonBody<{
          prompt?: unknown;
          thinking_enabled?: unknown;
          search_enabled?: unknown;
        }>(raw);
        if (body === undefined)
          return sendJson(res, { code: 40000, msg: 'Invalid request body', data: null }, 400);
        const prompt = typeof body.prompt === 'string' ? body.prompt : '';
        const variant = variantOf(prompt);
        if (variant === 'login_wall') return sendJson(res, MISSING_TOKEN, 401);
        const failure = authFailure(req);
        if (failure) return sendJson(res, failure.body, failure.status);
        const refusedPow = pow.check(
          req.headers['x-ds-pow-response'] as string | undefined,
          COMPLETION,
        );
        if (refusedPow)
          return sendJson(res, {
            code: 40301,
            msg: `INVALID_POW_RESPONSE: ${refusedPow}`,
            data: null,
          });
        if (variant === 'expired') return sendJson(res, INVALID_TOKEN);
        if (variant === 'captcha') {
          return sendJson(res, {
            code: 0,
            msg: '',
            data: { biz_code: 40301, biz_msg: 'HCAPTCHA_REQUIRED', biz_data: null },
          });
        }
        asked.push({ prompt, mode: requestedMode(body) });
        const kind = streamKind(prompt, variant);
        const flags = {
          thinking_enabled: body.thinking_enabled === true,
          search_enabled: body.search_enabled === true,
        };
        await stream(
          res,
          driftDeepseekStream(chatFrames(prompt, requestedMode(body), flags, kind, base), drift),
        );
      },
    },
  ];

  const served = await serveReplica(routes, opts.port, (url) => {
    base = url;
    const state = (t: string) =>
      storageStateFor(url, {
        localStorage: { userToken: JSON.stringify({ value: t, __version: '0' }) },
      });
    return {
      storageState: (user = USER) => state(sessionOf(user)),
      expiredStorageState: () => state(expiredToken),
    };
  });
  return { ...served, asked };
}
