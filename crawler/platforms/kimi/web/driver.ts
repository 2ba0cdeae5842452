/**
 * Kimi's chat page on the site-driver kit (crawler/web/site-driver.ts): the
 * kit reads the page's own chat call (Connect, or the older SSE) and this
 * file feeds it to the parser (stream.ts), every frame into the evidence.
 * The stream's end marker decides completion; without one the page does.
 * The effective mode is what the stream showed (common/ran-mode.ts), else
 * what the captured request asked for.
 */
import type { Evidence } from '../../types.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { readerOver } from '../../../web/read-frames.js';
import { PAGE, SITE } from './dom.js';
import { effectiveMode } from './request-mode.js';
import { KimiStreamParser } from './stream.js';

const kimiReader = (evidence: Evidence, mimeType: string) => {
  const parser = new KimiStreamParser({ mimeType, onFrame: (frame) => evidence.frame(frame) });
  return readerOver(parser, {
    complete: () => parser.done,
    formatVersion: () => parser.formatVersion,
    read: () => parser.raw(),
    report: () => parser.report(),
  });
};

/** The real site's hosts: pages, API, login and the image/static CDNs. */
export const KIMI: SiteSpec<ReturnType<typeof kimiReader>> = {
  site: SITE,
  urls: { start: '/', login: '/' },
  real: {
    host: /(^|\.)kimi\.com$|(^|\.)moonshot\.cn$/,
    origins: [
      'https://www.kimi.com',
      'https://kimi.com',
      'https://*.kimi.com',
      'https://*.moonshot.cn',
    ],
  },
  // The chat calls of the current and the older build.
  call: {
    url: /\/apiv2\/kimi\.gateway\.chat\.v1\.ChatService\/Chat(\?|$)|\/api\/chat\/[^/]+\/completion\/stream(\?|$)/,
  },
  ...PAGE,
  frames: ({ evidence, stream }) => kimiReader(evidence, stream.mimeType),
  effectiveMode: (body) => effectiveMode(body),
  asked: (body) => effectiveMode(body),
};
