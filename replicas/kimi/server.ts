/**
 * A local replica of www.kimi.com for tests (loopback only): the login page
 * with its QR code, the logged-in chat page, the current Connect chat call
 * and the older build's SSE call, a signature header only the page's script
 * can compute, and every misbehaviour of replicas/common/site.ts in
 * Kimi's own way (see frames.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import {
  cookies,
  sendHtml,
  sendJson,
  startSite,
  storageStateFor,
  variantOf,
} from '../common/site.js';
import { chatPathRoutes } from '../common/chat-path.js';
import { driftPage, firstByte } from '../common/drift.js';
import { modeOf, runOf, type AskingReplica, type ReplicaOptions } from '../common/replica.js';
import { driftKimiStream } from './stream-drift.js';
import { connectMessages, legacyEvents, STREAM_VARIANTS, type ConnectMessage } from './frames.js';
import { streamVariantOf } from '../common/stream-variants.js';
import { chatPage, iconSvg, loginPage, type KimiWidgets } from './page.js';
import { CHAT_SCRIPT, LOGIN_SCRIPT } from './page-script.js';
import { bearer, claimsOf, isExpired, issueToken, signingFault, type Claims } from './session.js';

export const CHAT_PATH = '/apiv2/kimi.gateway.chat.v1.ChatService/Chat';
const LEGACY_PATH = /^\/api\/chat\/([a-z0-9]+)\/completion\/stream$/;
const TEST_USER = 'replica-user';

export type KimiReplica = AskingReplica;

function readBytes(req: IncomingMessage, max = 1 << 20): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function envelopeOf(m: ConnectMessage): Buffer {
  const payload = Buffer.from(JSON.stringify(m.json), 'utf8');
  const head = Buffer.alloc(5);
  head[0] = m.end ? 0x02 : 0x00;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The first JSON message of a Connect request body. */
function requestOf(body: Buffer): Record<string, any> | undefined {
  if (body.length < 5 || body[0] !== 0) return undefined;
  const length = body.readUInt32BE(1);
  if (body.length !== 5 + length) return undefined;
  try {
    return JSON.parse(body.subarray(5).toString('utf8')) as Record<string, any>;
  } catch {
    return undefined;
  }
}

export async function startKimiReplica(
  opts: ReplicaOptions & { widgets?: KimiWidgets } = {},
): Promise<KimiReplica> {
  const { latency, drift, asked } = runOf(opts);
  const qrCodes = new Map<string, string | undefined>();
  let lastQr = '';
  let url = '';

  /** The caller's session, or the reply that refuses it. */
  const authorise = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBytes(req);
    const claims = claimsOf(bearer(req));
    if (!claims) {
      sendJson(res, { code: 'unauthenticated', message: '请先登录' }, 401);
      return undefined;
    }
    const fault = signingFault(req, claims, body);
    if (fault) {
      sendJson(res, { code: 'invalid_argument', message: `request refused: ${fault}` }, 400);
      return undefined;
    }
    return { claims, body };
  };

  const record = (prompt: string, m: { thinking: boolean; search: boolean }) =>
    asked.push({ prompt, mode: modeOf(m.thinking, m.search) });
  const streamConnect = async (res: ServerResponse, messages: ConnectMessage[]) => {
    await firstByte(drift);
    res.writeHead(200, { 'content-type': 'application/connect+json', 'cache-control': 'no-cache' });
    for (const m of messages) {
      if (res.destroyed) return;
      res.write(envelopeOf(m));
      await sleep(latency);
    }
    res.end();
  };

  const pageFor = async (req: IncomingMessage, res: ServerResponse) => {
    const claims = claimsOf(cookies(req)['kimi-auth']);
    if (claims) return sendHtml(res, driftPage(chatPage(claims.sub, opts.widgets), drift));
    const qrId = randomUUID();
    qrCodes.set(qrId, undefined);
    lastQr = qrId;
    const dataUrl = await QRCode.toDataURL(`${url}/login/qr/${qrId}`);
    sendHtml(res, driftPage(loginPage(qrId, dataUrl), drift));
  };

  const site = await startSite(
    [
      // The start page moved: its entry is the root, so the root becomes a landing page.
      ...chatPathRoutes(drift, {
        entry: ['/'],
        moved: '/chat/start',
        page: pageFor,
        root: 'page',
        title: 'Kimi',
      }),
      { method: 'GET', path: '/', handle: pageFor },
      { method: 'GET', path: /^\/chat\/[a-z0-9]+$/, handle: pageFor },
      {
        method: 'GET',
        path: '/static/chat.js',
        handle: (_req, res) => {
          res
            .writeHead(200, { 'content-type': 'text/javascript' })
            .end(driftPage(CHAT_SCRIPT, drift));
        },
      },
      {
        method: 'GET',
        path: '/static/login.js',
        handle: (_req, res) => {
          res
            .writeHead(200, { 'content-type': 'text/javascript' })
            .end(driftPage(LOGIN_SCRIPT, drift));
        },
      },
      {
        method: 'GET',
        path: /^\/static\/icons\/[a-z]+\.svg$/,
        handle: (_req, res, u) => {
          const name = /([a-z]+)\.svg$/.exec(u.pathname)![1]!;
          res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(iconSvg(name));
        },
      },
      {
        method: 'GET',
        path: '/api/auth/token',
        handle: (req, res) => {
          const token = cookies(req)['kimi-auth'];
          if (!claimsOf(token)) return sendJson(res, { code: 'unauthenticated' }, 401);
          sendJson(res, { access_token: token });
        },
      },
      {
        method: 'GET',
        path: /^\/api\/auth\/qr\/[^/]+\/status$/,
        handle: (_req, res, u) => {
          const id = u.pathname.split('/')[4]!;
          const token = qrCodes.get(id);
          if (!token) return sendJson(res, { status: qrCodes.has(id) ? 'PENDING' : 'EXPIRED' });
          res.setHeader('set-cookie', `kimi-auth=${token}; Path=/; HttpOnly; SameSite=Lax`);
          sendJson(res, { status: 'CONFIRMED', access_token: token });
        },
      },
      {
        // Test only: stands in for the person who scans the QR code with the app.
        method: 'POST',
        path: '/__replica/login',
        handle: async (req, res) => {
          const body = (await readBytes(req)).toString('utf8');
          const id = (body ? (JSON.parse(body) as { id?: string }).id : undefined) ?? lastQr;
          if (!qrCodes.has(id)) return sendJson(res, { ok: false, error: 'no such QR code' }, 404);
          qrCodes.set(id, issueToken(TEST_USER));
          sendJson(res, { ok: true });
        },
      },
      {
        method: 'POST',
        path: CHAT_PATH,
        handle: async (req, res) => {
          const auth = await authorise(req, res);
          if (!auth) return;
          const request = requestOf(auth.body);
          const prompt = request?.message?.blocks?.[0]?.text?.content;
          if (typeof prompt !== 'string') {
            return sendJson(res, { code: 'invalid_argument', message: 'no message' }, 400);
          }
          const variant = variantOf(prompt);
          if (variant === 'login_wall') {
            return sendJson(res, { code: 'unauthenticated', message: '请先登录' }, 401);
          }
          const mode = {
            thinking: request?.options?.thinking === true,
            search: Array.isArray(request?.tools)
              ? request.tools.some((t: { type?: string }) => t.type === 'TOOL_TYPE_SEARCH')
              : false,
          };
          record(prompt, mode);
          await streamConnect(
            res,
            driftKimiStream(
              connectMessages(
                prompt,
                mode,
                url,
                variant,
                isExpired(auth.claims),
                streamVariantOf(prompt, STREAM_VARIANTS),
              ),
              drift,
            ),
          );
        },
      },
      {
        method: 'POST',
        path: '/api/chat',
        handle: async (req, res) => {
          await readBytes(req);
          if (!claimsOf(bearer(req)))
            return sendJson(res, { error_type: 'auth.token.invalid' }, 401);
          sendJson(res, {
            id: `c${randomUUID().replace(/-/g, '').slice(0, 19)}`,
            name: '未命名会话',
          });
        },
      },
      {
        method: 'POST',
        path: LEGACY_PATH,
        handle: async (req, res, u) => {
          const auth = await authorise(req, res);
          if (!auth) return;
          if (isExpired(auth.claims)) {
            return sendJson(res, { error_type: 'auth.token.invalid', message: '登录已过期' }, 401);
          }
          const request = JSON.parse(auth.body.toString('utf8')) as Record<string, any>;
          const prompt = String(request.messages?.[0]?.content ?? '');
          const mode = {
            thinking: request.kimiplus_id === 'crm40ee9e5jvhsn7ptcg' || request.model === 'k1.5',
            search: request.use_search === true,
          };
          record(prompt, mode);
          const chatId = LEGACY_PATH.exec(u.pathname)![1]!;
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          for (const e of legacyEvents(prompt, mode, url, chatId)) {
            if (res.destroyed) return;
            res.write(`data: ${JSON.stringify(e)}\n\n`);
            await sleep(latency);
          }
          res.end();
        },
      },
    ],
    opts.port,
  );
  url = site.url;

  const stateFor = (claims: Pick<Claims, 'exp'>, token: string) =>
    storageStateFor(url, {
      cookies: { 'kimi-auth': token },
      localStorage: { access_token: token, exp: String(claims.exp) },
    });

  return {
    url,
    site,
    storageState() {
      const token = issueToken(TEST_USER);
      return stateFor(claimsOf(token)!, token);
    },
    expiredStorageState() {
      const token = issueToken(TEST_USER, -60);
      return stateFor(claimsOf(token)!, token);
    },
    asked,
    close: () => site.close(),
  };
}
