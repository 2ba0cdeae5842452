/**
 * The one guard around every web driver's `ask`: the sub task's deadline ends
 * it at once (a timeout), whatever the page was doing; a site signal the
 * driver raised (PlatformError) passes as it is; anything else the browser
 * threw (a closed page, a detached frame, a Playwright wait that ran out) is
 * a failed attempt worth retrying, never an answer. Background reads and polls
 * the driver started end when `ask` returns: the job it drives carries a
 * signal that aborts then.
 */
import type { Page } from 'playwright';
import { timeoutError } from '../platforms/common/errors.js';
import { PlatformError, type Job, type WebAnswer, type WebContext } from '../platforms/types.js';
import { bounded } from './dom-wait.js';

export type Drive = (page: Page, job: Job, ctx: WebContext) => Promise<WebAnswer>;

export function guardedAsk(drive: Drive): Drive {
  return async (page, job, ctx) => {
    if (job.signal.aborted) throw timeoutError('aborted before the page was used');
    const done = new AbortController();
    const signal = AbortSignal.any([job.signal, done.signal]);
    try {
      return await bounded(drive(page, { ...job, signal }, ctx), job.signal);
    } catch (err) {
      if (job.signal.aborted) throw timeoutError('no complete answer before the deadline');
      if (err instanceof PlatformError) throw err;
      const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
      throw new PlatformError(`browser error: ${message}`, 'failed', true);
    } finally {
      done.abort();
    }
  };
}
