/**
 * Marginal memory per logged-in account page, measured apart from any batch:
 * the crawler's own BrowserRunner (its Chromium flags, incognito contexts and
 * account identities) opens K account pages on the replica's chat page, each
 * checked logged in by the driver's own `loginState`, and holds them while
 * the Chromium tree's PSS is read; then the same with K + M pages.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { BrowserRunner } from '../../crawler/browser.js';
import type { PlatformSettings, WebDriver } from '../../crawler/platforms/types.js';
import type { Replica } from '../../replicas/index.js';
import type { Memory } from '../pipeline/resources.js';
import { treeMemory } from '../pipeline/procfs.js';
import { accountState } from './accounts.js';
import { median } from './figures.js';

/** Time for the pages' scripts and Chromium's allocations to settle before reading. */
const SETTLE_MS = 3_000;
const SAMPLES = 3;
const SAMPLE_GAP_MS = 500;

export interface MemoryFigures {
  base: Memory;
  more: Memory;
  basePages: number;
  morePages: number;
}

/** The Chromium processes this process launched, and their descendants. */
function chromiumTree(): Memory {
  const total: Memory = { rss: 0, pss: 0, processes: 0, renderers: 0 };
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom')) continue;
    } catch {
      continue;
    }
    const m = treeMemory(pid);
    total.rss += m.rss;
    total.pss += m.pss;
    total.processes += m.processes;
    total.renderers += m.renderers;
  }
  return total;
}

async function settledMemory(): Promise<Memory> {
  await sleep(SETTLE_MS);
  const samples: Memory[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    samples.push(chromiumTree());
    await sleep(SAMPLE_GAP_MS);
  }
  const pick = (k: keyof Memory) => median(samples.map((m) => m[k]));
  return {
    rss: pick('rss'),
    pss: pick('pss'),
    processes: pick('processes'),
    renderers: pick('renderers'),
  };
}

/**
 * One browser with `pages` account pages opened together and held while the
 * memory is read. (Each count gets a browser of its own, every page asked for
 * at once: the BrowserRunner's Crawlee queue starts work added while all its
 * running pages are held only once one of them ends.)
 */
async function memoryWithPages(input: PagesInput, pages: number): Promise<Memory> {
  const { replica, web, settings } = input;
  const browser = new BrowserRunner({
    chromiumPath: input.chromiumPath,
    concurrency: pages,
    maxWorkSeconds: 120,
  });
  const signal = new AbortController().signal;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const job = { prompt: 'memory', mode: 'standard' as const, signal };
  const ready: Promise<void>[] = [];
  const opened: Promise<void>[] = [];
  for (let i = 0; i < pages; i++) {
    let loaded!: () => void;
    let failed!: (err: unknown) => void;
    ready.push(new Promise<void>((res, rej) => ((loaded = res), (failed = rej))));
    opened.push(
      browser
        .open({
          url: web.startUrl(job, { settings }),
          allowedOrigins: web.origins({ settings }),
          identity: {
            storageState: accountState(replica, `memory-${i + 1}`),
            locale: 'zh-CN',
            timezoneId: 'Asia/Shanghai',
          },
          signal,
          run: async (page) => {
            const state = await web.loginState(page, { settings });
            if (!state.loggedIn) throw new Error(`page ${i + 1} not logged in: ${state.reason}`);
            loaded();
            await released;
          },
        })
        .catch((err: unknown) => failed(err)),
    );
  }
  try {
    await Promise.all(ready);
    return await settledMemory();
  } finally {
    release();
    await Promise.all(opened);
    await browser.stop();
  }
}

interface PagesInput {
  replica: Replica;
  web: WebDriver;
  settings: PlatformSettings;
  chromiumPath: string;
}

export async function measureContexts(
  input: PagesInput & { basePages: number; extraPages: number },
): Promise<MemoryFigures> {
  const base = await memoryWithPages(input, input.basePages);
  const morePages = input.basePages + input.extraPages;
  const more = await memoryWithPages(input, morePages);
  return { base, more, basePages: input.basePages, morePages };
}
