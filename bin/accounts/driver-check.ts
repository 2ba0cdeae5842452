/**
 * `driver-check`: one prompt on the live site as one account, the way a
 * crawler node runs it (the site's own page, its stream read through CDP),
 * for operators after a site changed. It prints every extracted field, the
 * effective mode and the stream format version the driver recognised, and
 * saves the raw frames, the screenshot and the answer in a folder. The
 * account is held for the check like a sub task holds it, so the cluster
 * never uses it at the same time, and released with the site's verdict.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { PlatformError, type WebAnswer } from '../../crawler/platforms/types.js';
import { startCapture } from '../../crawler/web/capture.js';
import { EvidenceLog } from '../../crawler/web/evidence-log.js';
import type { AccountView } from '../../services/accounts/view.js';
import type {
  AccountVerdict,
  CheckedOutAccount,
  StorageState,
} from '../../services/shared/contracts/accounts.js';
import type { Mode } from '../../services/shared/platforms.js';
import { withBrowser, type BrowserDeps } from './browser.js';

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
  requestedMode: Mode;
  /** The answer (with effectiveMode and formatVersion) or null when the site gave none. */
  answer: WebAnswer | null;
  failure: {
    message: string;
    status: string;
    retryable: boolean;
    account?: AccountVerdict;
  } | null;
  frames: number;
  files: { frames: string; screenshot: string | null; answer: string };
}

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

const shoot = (page: Page) => page.screenshot({ fullPage: true }).catch(() => undefined);

export async function driverCheck(
  d: BrowserDeps,
  r: DriverCheckRequest,
): Promise<DriverCheckResult> {
  const site = d.siteOf(r.platform);
  const view = await findAccount(d, r.platform, r.account);
  const holder = `driver-check ${randomUUID()}`;
  const acc = await d.call<CheckedOutAccount>('hold', { id: view.id, holder });
  await mkdir(r.outDir, { recursive: true });
  const files = {
    frames: join(r.outDir, 'frames.ndjson'),
    screenshot: join(r.outDir, 'screenshot.png'),
    answer: join(r.outDir, 'answer.json'),
  };
  let verdict: AccountVerdict = { state: 'healthy' };
  let storageState: StorageState | undefined;
  try {
    return await withBrowser(d, async (browser) => {
      const context = await browser.newContext({
        storageState: acc.storageState,
        locale: acc.locale,
        timezoneId: acc.timezoneId,
      });
      const page = await context.newPage();
      const evidence = new EvidenceLog();
      const signal = AbortSignal.timeout(site.settings.timeoutMs);
      const job = { prompt: r.prompt, mode: r.mode, signal };
      let answer: WebAnswer | null = null;
      let failure: DriverCheckResult['failure'] = null;
      try {
        await page.goto(site.driver.startUrl(job, site), {
          waitUntil: 'domcontentloaded',
          timeout: site.settings.timeoutMs,
        });
        const capture = await startCapture(page, evidence);
        try {
          answer = await site.driver.ask(page, job, { ...site, capture, evidence });
        } finally {
          await capture.close();
        }
      } catch (err) {
        failure = failureOf(err);
        if (failure.account) verdict = failure.account;
      }
      const png = await shoot(page);
      if (png) await writeFile(files.screenshot, png);
      if (verdict.state === 'needs_human' && png)
        verdict = { ...verdict, screenshotPng: png.toString('base64') };
      storageState = (await context.storageState().catch(() => undefined)) as
        StorageState | undefined;
      await writeFile(files.frames, evidence.toNdjson());
      await writeFile(files.answer, JSON.stringify({ answer, failure }, null, 2));
      return {
        platform: r.platform,
        account: { id: acc.id, label: acc.label },
        requestedMode: r.mode,
        answer,
        failure,
        frames: evidence.list().filter((e) => e.kind === 'frame').length,
        files: { ...files, screenshot: png ? files.screenshot : null },
      };
    });
  } finally {
    await d.call('release', {
      id: acc.id,
      holder,
      verdict,
      prompted: true,
      ...(storageState ? { storageState } : {}),
    });
  }
}

/** The result as an operator reads it: every field, then where the evidence is. */
export function formatDriverCheck(r: DriverCheckResult): string {
  const lines = [
    `${r.platform} driver check as account ${r.account.label} (${r.account.id})`,
    `requested mode: ${r.requestedMode}`,
  ];
  if (r.failure) {
    lines.push(
      `FAILED (${r.failure.status}${r.failure.retryable ? ', retryable' : ''}): ${r.failure.message}`,
    );
    if (r.failure.account) lines.push(`account → ${r.failure.account.state}`);
  }
  const a = r.answer;
  if (a) {
    lines.push(
      `effective mode: ${a.effectiveMode}`,
      `stream format: ${a.formatVersion}`,
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
  lines.push(
    `raw frames: ${r.frames} in ${r.files.frames}`,
    `screenshot: ${r.files.screenshot ?? 'none'}`,
    `answer JSON: ${r.files.answer}`,
  );
  return lines.join('\n');
}
