/**
 * `driver-check`: one prompt on the live site as one account, through the very
 * attempt a crawler node runs (crawler/web/web-attempt.ts: the account checked
 * out, the site's own page in a Crawlee-managed Chromium limited to the site's
 * origins, its stream read through CDP, the release with the site's verdict),
 * for operators after a site changed. It prints every extracted field, the mode
 * it set and the mode that ran, which witness the answer came from (stream or
 * page) and any difference between them, and the stream format version; it
 * saves the raw frames, the screenshot and the answer in a folder. The account
 * is held for the check like a sub task holds it, so the cluster never uses it
 * at the same time; a wall leaves its stored login as it was.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { log as crawleeLog, LogLevel } from '@crawlee/core';
import { BrowserRunner } from '../../crawler/browser.js';
import { PlatformError, type WebAnswer } from '../../crawler/platforms/types.js';
import { KeptPages } from '../../crawler/web/kept-pages.js';
import { holderOf, WebAttempt } from '../../crawler/web/web-attempt.js';
import type { AccountView } from '../../services/accounts/view.js';
import type {
  AccountVerdict,
  CheckedOutAccount,
  CheckoutRequest,
  HumanKind,
  ReleaseRequest,
} from '../../services/shared/contracts/accounts.js';
import type { LeaseMessage } from '../../services/shared/contracts/lease.js';
import type { Mode } from '../../services/shared/platforms.js';
import type { BrowserDeps } from './browser.js';

export interface DriverCheckRequest {
  platform: string;
  /** The account's id or label. */
  account: string;
  prompt: string;
  mode: Mode;
  /** Folder for frames.ndjson, screenshot.png and answer.json. */
  outDir: string;
}

export interface DriverCheckResult {
  platform: string;
  account: { id: string; label: string };
  /** The mode the check set on the page. */
  requestedMode: Mode;
  /** The answer (with effectiveMode, formatVersion, answerSource) or null when the site gave none. */
  answer: WebAnswer | null;
  /**
   * The evidence's `stream and page differ: …` note: the answer the stream
   * assembled and the page's rendered text disagreed beyond formatting; null: they agreed.
   */
  streamPageDifference: string | null;
  failure: {
    message: string;
    status: string;
    retryable: boolean;
    account?: AccountVerdict;
  } | null;
  frames: number;
  files: { frames: string; screenshot: string | null; answer: string };
}

/** The evidence note of a stream-versus-page disagreement (crawler/web/witness.ts writes it). */
export const STREAM_PAGE_DIFFER = 'stream and page differ:';

async function findAccount(d: BrowserDeps, platform: string, which: string): Promise<AccountView> {
  const all = await d.call<AccountView[]>('list', { platform });
  const found = all.find((a) => a.id === which) ?? all.find((a) => a.label === which);
  if (!found) throw new Error(`no ${platform} account with id or label ${JSON.stringify(which)}`);
  return found;
}

function failureOf(err: unknown): NonNullable<DriverCheckResult['failure']> {
  if (err instanceof PlatformError) {
    return {
      message: err.message,
      status: err.status,
      retryable: err.retryable,
      ...(err.account ? { account: err.account } : {}),
    };
  }
  const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
  return { message: `browser error: ${message}`, status: 'failed', retryable: true };
}

/** The check as a lease: the holder `driver-check <uuid>`, one full-page screenshot. */
function checkLease(view: AccountView, r: DriverCheckRequest): LeaseMessage {
  return {
    subTaskId: 'driver-check',
    taskId: 'driver-check',
    token: randomUUID(),
    expiresAt: 0,
    leaseMs: 0,
    platform: r.platform,
    channel: 'web',
    mode: r.mode,
    prompt: r.prompt,
    screenshot: 1,
    regionCode: view.regionCode,
    avoidProxy: null,
    attempt: 1,
    account: { id: view.id, proxyKey: null },
  };
}

export async function driverCheck(
  d: BrowserDeps,
  r: DriverCheckRequest,
): Promise<DriverCheckResult> {
  const site = d.siteOf(r.platform);
  const view = await findAccount(d, r.platform, r.account);
  const lease = checkLease(view, r);
  const acc = await d.call<CheckedOutAccount>('hold', { id: view.id, holder: holderOf(lease) });
  await mkdir(r.outDir, { recursive: true });
  const files = {
    frames: join(r.outDir, 'frames.ndjson'),
    screenshot: join(r.outDir, 'screenshot.png'),
    answer: join(r.outDir, 'answer.json'),
  };
  const level = crawleeLog.getLevel();
  crawleeLog.setLevel(LogLevel.OFF);
  const browser = new BrowserRunner({
    chromiumPath: d.chromiumPath,
    concurrency: 1,
    maxWorkSeconds: Math.ceil(site.settings.timeoutMs / 1000) + 30,
    headed: d.headed,
  });
  // Keeps no page: the check's page closes with it.
  const keptPages = new KeptPages({ max: 0, idleMs: 0 });
  const attempt = new WebAttempt(
    {
      browser,
      keptPages,
      accounts: {
        checkout: (q: CheckoutRequest) => d.call<CheckedOutAccount>('checkout', q),
        release: (q: ReleaseRequest) => d.call<void>('release', q),
      },
      saveEvidence: async (ndjson) => {
        await writeFile(files.frames, ndjson);
        return files.frames;
      },
      log: { warn: (...args) => d.log(args.map(String).join(' ')) },
    },
    {
      lease,
      web: site.driver,
      settings: site.settings,
      port: null,
      job: { prompt: r.prompt, mode: r.mode, signal: AbortSignal.timeout(site.settings.timeoutMs) },
      shotOnFailure: true,
    },
  );
  let answer: WebAnswer | null = null;
  let failure: unknown = null;
  let png: Buffer | undefined;
  try {
    const done = await attempt.run();
    answer = done.answer;
    png = done.shots?.png;
  } catch (err) {
    failure = err;
    png = attempt.failureShot;
  } finally {
    // The evidence goes to frames.ndjson and the account back with the verdict, whatever happened.
    await attempt.finish({ reported: true, failure }).finally(async () => {
      await keptPages.closeAll();
      await browser.stop();
      crawleeLog.setLevel(level);
    });
  }
  if (attempt.evidence.size === 0) await writeFile(files.frames, '');
  if (png) await writeFile(files.screenshot, png);
  const printed = failure === null ? null : failureOf(failure);
  await writeFile(files.answer, JSON.stringify({ answer, failure: printed }, null, 2));
  const notes = attempt.evidence.list();
  const differ = notes.find((e) => e.kind === 'note' && e.text.startsWith(STREAM_PAGE_DIFFER));
  return {
    platform: r.platform,
    account: { id: acc.id, label: acc.label },
    requestedMode: r.mode,
    answer,
    streamPageDifference: differ?.kind === 'note' ? differ.text : null,
    failure: printed,
    frames: notes.filter((e) => e.kind === 'frame').length,
    files: { ...files, screenshot: png ? files.screenshot : null },
  };
}

/** What the operator does for each kind of needs_human (docs/web-channel.md, "Accounts"). */
const HUMAN_HELP: Record<HumanKind, string> = {
  login_wall: 'the site asks to log in: log the account in again (account login)',
  session_expired:
    'the session died while in use: log in again (account login); if it dies again soon, find out what ends it',
  verification: 'the site asks a person to verify: solve it (account login --headed)',
};

/** The result as an operator reads it: every field, then where the evidence is. */
export function formatDriverCheck(r: DriverCheckResult): string {
  const lines = [
    `${r.platform} driver check as account ${r.account.label} (${r.account.id})`,
    `requested mode (set on the page): ${r.requestedMode}`,
  ];
  if (r.failure) {
    lines.push(
      `FAILED (${r.failure.status}${r.failure.retryable ? ', retryable' : ''}): ${r.failure.message}`,
    );
    const v = r.failure.account;
    if (v?.state === 'needs_human') {
      const kind = v.kind ?? 'login_wall';
      lines.push(`account → needs_human (${kind}): ${HUMAN_HELP[kind]}`);
    } else if (v) lines.push(`account → ${v.state}`);
  }
  const a = r.answer;
  if (a) {
    lines.push(
      `effective mode (what ran): ${a.effectiveMode}${a.effectiveMode === r.requestedMode ? '' : ` (asked ${r.requestedMode})`}`,
      `stream format: ${a.formatVersion}`,
      `answer source: ${a.answerSource ?? 'stream'}`,
      `answer (${a.answerContent.length} chars):`,
      a.answerContent,
      `references (${a.referenceList.length}):`,
      ...a.referenceList.map((x) => `  [${x.index}] ${x.title} <${x.url}> ${x.site} ${x.icon}`),
      `citations (${a.citationList.length}): ${a.citationList.map((x) => x.index).join(', ')}`,
      `reasoning: ${a.reasoningProcess ? `${a.reasoningProcess.content.length} chars` : 'none'}`,
      ...(a.reasoningProcess?.content ? [a.reasoningProcess.content] : []),
      `follow-up questions (${a.recommendedQuestions.length}):`,
      ...a.recommendedQuestions.map((q) => `  - ${q}`),
      `media (${a.mediaContent.length}):`,
      ...a.mediaContent.map((m) => `  ${m.type} ${m.url}${m.title ? ` ${m.title}` : ''}`),
    );
  }
  if (r.streamPageDifference) lines.push(r.streamPageDifference);
  lines.push(
    `raw frames: ${r.frames} in ${r.files.frames}`,
    `screenshot: ${r.files.screenshot ?? 'none'}`,
    `answer JSON: ${r.files.answer}`,
  );
  return lines.join('\n');
}
