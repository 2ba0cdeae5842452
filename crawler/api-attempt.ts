/**
 * One attempt of an API-channel sub task: the vendor API through the lease's
 * proxy port and, when the lease asks for one, a screenshot of the answer
 * rendered as the platform's page (answer-page.ts) on this node's render server;
 * in mode 2 with the mentions in the answer highlighted (mentions/shots.ts).
 */
import type { Page } from 'playwright';
import type { Answer } from '../services/shared/contracts/answer.js';
import type { LeaseMessage } from '../services/shared/contracts/lease.js';
import { findPlatform } from '../services/shared/platforms.js';
import { ANSWER_SELECTOR, renderAnswerPage } from './answer-page.js';
import type { BrowserRunner } from './browser.js';
import type { Job, PlatformDriver, PlatformSettings } from './platforms/types.js';
import type { ChosenPort } from './proxy-pool.js';
import type { RenderServer } from './render-server.js';
import { takeShots, type Shots } from './mentions/shots.js';

export interface ApiAttemptDeps {
  fetchVia(port: ChosenPort | null): typeof fetch;
  browser: BrowserRunner;
  render: RenderServer;
}

export interface ApiAttemptInput {
  lease: LeaseMessage;
  driver: PlatformDriver;
  settings: PlatformSettings;
  port: ChosenPort | null;
  job: Job;
}

export async function apiAttempt(
  d: ApiAttemptDeps,
  { lease, driver, settings, port, job }: ApiAttemptInput,
): Promise<{ answer: Answer; shots?: Shots }> {
  const answer = await driver.api!.ask(job, { settings, fetch: d.fetchVia(port) });
  if (lease.screenshot === 0) return { answer };
  const label = findPlatform(lease.platform)?.label ?? lease.platform;
  const page = d.render.publish(
    renderAnswerPage({ platformLabel: label, prompt: lease.prompt, answer }),
  );
  try {
    return {
      answer,
      shots: await d.browser.open({
        url: page.url,
        allowedOrigins: [new URL(page.url).origin],
        signal: job.signal,
        // The answer's own block: the prompt and the sources list are not the answer's mentions.
        run: (p: Page) =>
          takeShots(p, {
            screenshot: lease.screenshot,
            keywords: lease.keywords,
            root: ANSWER_SELECTOR,
          }),
      }),
    };
  } finally {
    page.dispose();
  }
}
