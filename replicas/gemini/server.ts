/**
 * A local replica of gemini.google.com (loopback only): the app page with
 * its `WIZ_global_data` (the `SNlM0e` token of the signed-in session), the
 * site's controls and its own script; Google's sign-in page; and
 * `POST /_/BardChatUi/data/assistant.lamda.BardFrontendService/StreamGenerate`
 * in its wire format (frames.ts): the session's `__Secure-1PSID` /
 * `__Secure-1PSIDTS` cookies and the form's `at` token checked, the model
 * read from `x-goog-ext-525001261-jspb`, Google Search from the request's
 * tools. Each `storageState()` is a new account's login.
 *
 * Misbehaviour by prompt directive (`#replica:<variant>`): `login_wall` and
 * `expired` (HTTP 401, the session refused), `captcha` (Google's "unusual
 * traffic" page, HTTP 429), `rate_limit` (HTTP 429), `quota` (error 1037
 * inside the stream), `no_end`, `unknown_frame`, `old_format` and the stream
 * variants of frames.ts. The drift every replica takes
 * (replicas/common/drift.ts) is chosen when it starts.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  cookies,
  readBody,
  redirect,
  sendHtml,
  storageStateFor,
  variantOf,
  type Route,
} from '../common/site.js';
import { chatPathRoutes } from '../common/chat-path.js';
import { driftPage, firstByte } from '../common/drift.js';
import {
  modeOf,
  runOf,
  serveReplica,
  streamKindOf,
  type AskingReplica,
  type ReplicaOptions,
} from '../common/replica.js';
import { driftGeminiStream } from './stream-drift.js';
import { chatChunks, GUARD, STREAM_VARIANTS, type StreamKind } from './frames.js';
import { MODEL_IDS } from './models.js';
import { appPage, signInPage, sorryPage, type Wiz } from './pages.js';

export type GeminiReplica = AskingReplica;

export const CALL_PATH = '/_/BardChatUi/data/assistant.lamda.BardFrontendService/StreamGenerate';
const BUILD = 'boq_assistant-bard-web-server_20261201.00_p0';

/** The prompt, the tools and the conversation the form's `f.req` carries. */
export function readRequest(form: string): { prompt: string; search: boolean; at: string } {
  const params = new URLSearchParams(form);
  const outer = JSON.parse(params.get('f.req') ?? 'null') as unknown[];
  const inner = JSON.parse(String(outer[1])) as unknown[];
  const message = inner[0] as unknown[];
  return {
    prompt: typeof message[0] === 'string' ? message[0] : '',
    search: Array.isArray(inner[9]) && JSON.stringify(inner[9]).includes('google_search'),
    at: params.get('at') ?? '',
  };
}

const streamKind = (prompt: string) =>
  streamKindOf<StreamKind>(
    prompt,
    STREAM_VARIANTS,
    { no_end: 'no_end', quota: 'quota' },
    { unknown_frame: 'unknown_frame' },
  );

const hex = (n: number) => randomBytes(n).toString('hex');

export async function startGeminiReplica(opts: ReplicaOptions = {}): Promise<GeminiReplica> {
  const { latency, drift, asked } = runOf(opts);
  /** Each login handed out (a storage state is one account): its 1PSID → its session. */
  const sessions = new Map<string, Wiz>();

  const sessionOf = (req: IncomingMessage): Wiz | undefined => {
    const c = cookies(req);
    return c['__Secure-1PSIDTS'] ? sessions.get(c['__Secure-1PSID'] ?? '') : undefined;
  };
  const page = (req: IncomingMessage, res: ServerResponse) =>
    sendHtml(res, driftPage(appPage(sessionOf(req)), drift));

  const streamGenerate = async (req: IncomingMessage, res: ServerResponse) => {
    const form = await readBody(req);
    const session = sessionOf(req);
    let request: ReturnType<typeof readRequest>;
    try {
      request = readRequest(form);
    } catch {
      return plain(res, 400, 'Bad Request');
    }
    const { prompt } = request;
    const variant = variantOf(prompt);
    if (!session || variant === 'expired' || variant === 'login_wall')
      return plain(res, 401, 'Your session has expired. Sign in again to continue.');
    if (request.at !== session.SNlM0e) return plain(res, 400, 'Bad Request: invalid token');
    if (variant === 'captcha') return sendHtml(res, sorryPage(), 429);
    if (variant === 'rate_limit') return plain(res, 429, 'Too Many Requests');
    const model = String(req.headers['x-goog-ext-525001261-jspb'] ?? '');
    const thinking = model.includes(MODEL_IDS.thinking);
    const mode = modeOf(thinking, request.search);
    asked.push({ prompt, mode });
    const ids = { cid: `c_${hex(8)}`, rid: `r_${hex(8)}`, rcid: `rc_${hex(8)}` };
    const chunks = driftGeminiStream(chatChunks(prompt, mode, streamKind(prompt), ids), drift);
    await firstByte(drift);
    res.writeHead(200, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
    });
    res.write(GUARD);
    for (const c of chunks) {
      if (res.destroyed) return;
      res.write(c);
      await new Promise((r) => setTimeout(r, latency));
    }
    res.end();
  };

  const routes: Route[] = [
    ...chatPathRoutes(drift, {
      entry: ['/app'],
      moved: '/u/0/app',
      page,
      root: 'redirect',
      title: 'Gemini',
    }),
    { method: 'GET', path: '/', handle: (_q, res) => redirect(res, '/app') },
    { method: 'GET', path: /^\/app(\/[0-9a-f]+)?$/, handle: page },
    { method: 'GET', path: '/ServiceLogin', handle: (_q, res) => sendHtml(res, signInPage()) },
    { method: 'POST', path: CALL_PATH, handle: streamGenerate },
  ];

  const served = await serveReplica(routes, opts.port, (url) => {
    const state = (psid: string) =>
      storageStateFor(url, {
        cookies: { '__Secure-1PSID': psid, '__Secure-1PSIDTS': `sidts-${hex(12)}` },
        secure: true,
      });
    return {
      // A new account's login each time, as each real account has its own cookies.
      storageState: () => {
        const psid = `g.a000${hex(24)}`;
        sessions.set(psid, {
          SNlM0e: `AFH${hex(16)}:${Date.now()}`,
          cfb2h: BUILD,
          FdrFJe: String(BigInt(`0x${hex(7)}`)),
          W3Yyqf: `user-${sessions.size + 1}`,
        });
        return state(psid);
      },
      expiredStorageState: () => state(`g.a000${hex(24)}`),
    };
  });
  return { ...served, asked };
}

function plain(res: ServerResponse, status: number, text: string): void {
  res
    .writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    })
    .end(text);
}
