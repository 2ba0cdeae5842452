/**
 * `account login` and `account check` in real Chromium against a loopback
 * site with a QR-code login: the login page shows a QR code and polls until
 * the code is scanned (here by the test, through the scan endpoint the QR
 * code names), then the session cookie is set and the chat page opens.
 */
import t from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import QRCode from 'qrcode';
import { checkAccount, loginAccount, type BrowserDeps } from '../../../bin/accounts/browser.js';
import type { WebDriver } from '../../../crawler/platforms/types.js';
import type { AccountView } from '../../../services/accounts/view.js';
import { createBroker } from '../../../services/index.js';
import { loadConfig } from '../../../services/shared/config.js';
import type { CheckedOutAccount } from '../../../services/shared/contracts/accounts.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';
import { cookies, redirect, sendHtml, sendJson, startSite } from '../../../replicas/common/site.js';

const scanned = new Map<string, boolean>();
const sessions = new Set<string>();

const site = await startSite([
  { method: 'GET', path: '/', handle: (_req, res) => redirect(res, '/chat') },
  {
    method: 'GET',
    path: '/login',
    async handle(req, res) {
      const code = randomUUID();
      scanned.set(code, false);
      const qr = await QRCode.toDataURL(`http://${req.headers.host}/scan?code=${code}`);
      sendHtml(
        res,
        `<!doctype html><title>登录</title><h1>扫码登录</h1><img id="qr" src="${qr}">
<script>
setInterval(async () => {
  const r = await fetch('/login/status?code=${code}');
  if ((await r.json()).ok) location.href = '/chat';
}, 200);
</script>`,
      );
    },
  },
  {
    method: 'GET',
    path: '/login/status',
    handle(_req, res, url) {
      const code = url.searchParams.get('code') ?? '';
      if (scanned.get(code) !== true) return sendJson(res, { ok: false });
      scanned.delete(code);
      const sid = randomBytes(12).toString('hex');
      sessions.add(sid);
      res.setHeader('set-cookie', `sid=${sid}; Path=/; HttpOnly; SameSite=Lax`);
      sendJson(res, { ok: true });
    },
  },
  {
    // Test only: what the phone app does when it scans the code.
    method: 'POST',
    path: '/scan',
    handle(_req, res, url) {
      const code = url.searchParams.get('code') ?? '';
      if (!scanned.has(code)) return sendJson(res, { error: 'unknown code' }, 404);
      scanned.set(code, true);
      sendJson(res, { scanned: true });
    },
  },
  {
    method: 'GET',
    path: '/chat',
    handle(req, res) {
      sendHtml(
        res,
        sessions.has(cookies(req).sid ?? '')
          ? '<!doctype html><main id="chat"><textarea></textarea></main>'
          : '<!doctype html><div id="login-wall">请先登录</div>',
      );
    },
  },
]);

const driver: WebDriver = {
  startUrl: (_job, ctx) => `${ctx.settings.webUrl}/chat`,
  origins: (ctx) => [new URL(ctx.settings.webUrl).origin],
  ask: () => Promise.reject(new Error('not asked here')),
  loginUrl: (ctx) => `${ctx.settings.webUrl}/login`,
  async loginState(page) {
    if ((await page.locator('#chat').count()) > 0) return { loggedIn: true };
    if ((await page.locator('#login-wall').count()) > 0) {
      return { loggedIn: false, reason: 'the chat page shows its login wall' };
    }
    return { loggedIn: false, reason: 'the login page is open' };
  },
};

const config = loadConfig({
  MONGO_URL: mongoUrl(),
  MONGO_DB: uniqueDbName('accountslogin'),
  ACCOUNTS_KEY: randomBytes(32).toString('base64'),
  LOG_LEVEL: 'warn',
  SERVICES: 'accounts',
});
const broker = await createBroker(config);
await broker.start();
const dir = mkdtempSync(join(tmpdir(), 'account-login-'));

t.teardown(async () => {
  const c = await mongoose
    .createConnection(config.mongoUrl, { dbName: config.mongoDb })
    .asPromise();
  await c.dropDatabase();
  await c.close();
  await broker.stop();
  await site.close();
});

function deps(lines: string[]): BrowserDeps {
  return {
    call: (action, params) => broker.call(`accounts.${action}`, params),
    chromiumPath: config.crawler.chromiumPath,
    log: (text) => lines.push(text),
    siteOf: (platform) => {
      if (platform !== 'kimi') throw new Error(`unexpected platform ${platform}`);
      return { driver, settings: { apiBaseUrl: '', webUrl: site.url, timeoutMs: 20_000 } };
    },
    headed: false,
    pollMs: 200,
  };
}

/** Plays the phone: reads the QR code the command printed and scans it. */
async function scanPrinted(lines: string[]): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const m = /^QR code: (\S+)$/m.exec(lines.join('\n'));
    if (m) {
      const res = await fetch(m[1]!, { method: 'POST' });
      if (res.status !== 200) throw new Error(`scan refused: ${res.status}`);
      return m[1]!;
    }
    if (Date.now() > deadline) throw new Error(`no QR code printed: ${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const listed = async (id: string) =>
  (await broker.call<AccountView[], object>('accounts.list', {})).find((a) => a.id === id);

let accountId = '';

t.test('login: the QR code as PNG and in the terminal, then the login stored', async (t) => {
  const lines: string[] = [];
  const out = join(dir, 'login.png');
  const [result, qr] = await Promise.all([
    loginAccount(deps(lines), {
      platform: 'kimi',
      label: 'phone-1',
      regionCode: '310100',
      out,
      timeoutMs: 60_000,
    }),
    scanPrinted(lines),
  ]);
  t.match(
    qr,
    new RegExp(`^${site.url}/scan\\?code=[0-9a-f-]{36}$`),
    'the QR code was read from the screenshot',
  );
  t.equal(result.qr, qr);
  t.ok(existsSync(out), 'the login screen is in the PNG file');
  t.same(readFileSync(out).subarray(0, 8), Buffer.from('89504e470d0a1a0a', 'hex'));
  t.ok(
    lines.some((l) => /[█▀▄]/.test(l)),
    'the QR code was drawn in the terminal',
  );
  t.match(result.account, {
    platform: 'kimi',
    label: 'phone-1',
    regionCode: '310100',
    state: 'healthy',
    hasState: true,
  });
  accountId = result.account.id;

  const login = site.seen.find((s) => s.path === '/login')!;
  t.match(login.headers['accept-language'], /^zh-CN/, "the region's locale");
  const stored = await broker.call<CheckedOutAccount, object>('accounts.readState', {
    id: accountId,
  });
  const sid = stored.storageState.cookies.find((c) => c.name === 'sid');
  t.ok(sid && sessions.has(sid.value), "the site's session cookie is the stored login");
});

t.test(
  'check: a live session stays healthy, a dead one goes needs_human with a screenshot',
  async (t) => {
    const alive = await checkAccount(deps([]), accountId);
    t.match(alive, { id: accountId, loggedIn: true, account: { state: 'healthy' } });
    const chat = site.seen.filter((s) => s.path === '/chat').at(-1)!;
    t.match(chat.headers.cookie, /sid=/, 'opened with the stored cookie');

    sessions.clear();
    const dead = await checkAccount(deps([]), accountId);
    t.match(dead, {
      loggedIn: false,
      reason: 'the chat page shows its login wall',
      account: {
        state: 'needs_human',
        reason: 'account check: the chat page shows its login wall',
        humanKind: 'login_wall',
        screenshot: /\/screenshot\/[0-9a-f]{32}\.png$/,
      },
    });
    const shotId = /([0-9a-f]{32})\.png$/.exec(dead.account.screenshot!)![1]!;
    const c = await mongoose
      .createConnection(config.mongoUrl, { dbName: config.mongoDb })
      .asPromise();
    const shot = await c.collection('screenshots').findOne({ _id: shotId as never });
    await c.close();
    t.same(Buffer.from(shot!.png.buffer).subarray(0, 4), Buffer.from('89504e47', 'hex'));
    t.equal((await listed(accountId))?.state, 'needs_human');
  },
);

t.test('logging in again under the same label brings the account back', async (t) => {
  const lines: string[] = [];
  const [result] = await Promise.all([
    loginAccount(deps(lines), {
      platform: 'kimi',
      label: 'phone-1',
      out: join(dir, 'again.png'),
      timeoutMs: 60_000,
    }),
    scanPrinted(lines),
  ]);
  t.match(result.account, {
    id: accountId,
    state: 'healthy',
    reason: null,
    screenshot: null,
    regionCode: '310100',
  });
  t.match(await checkAccount(deps([]), accountId), { loggedIn: true });
});

t.test('a login nobody completes times out and stores nothing', async (t) => {
  await t.rejects(
    loginAccount(deps([]), {
      platform: 'kimi',
      label: 'nobody',
      out: join(dir, 'nobody.png'),
      timeoutMs: 1_500,
    }),
    {
      message:
        /^not logged in within 1500 ms \(the login page is open\); the last screen is in .*nobody\.png$/,
    },
  );
  t.notOk(
    (await broker.call<AccountView[], object>('accounts.list', {})).some(
      (a) => a.label === 'nobody',
    ),
  );
});
