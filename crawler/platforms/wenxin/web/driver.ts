/**
 * Yiyan's chat page on the site-driver kit (crawler/web/site-driver.ts). The
 * page's own script makes the chat call `POST /eb/chat/conversation/v2` with
 * the `Acs-Token` header (and the same value as the body's `sign`), which
 * Baidu's script computes from inputs that change irregularly
 * (joseph16388/Easy-Ernie): only the page can make the call, never the
 * driver, which only reads it (CDP) and feeds its SSE stream to the parser
 * (stream.ts). Completion: a message frame with `is_end: 1` (a thought
 * frame's `is_end` only ends the thinking). Errors arrive as HTTP 200 JSON
 * `{code, msg}` (envelope.ts). The effective mode is what the stream shows
 * ran: thought frames, a citation list.
 *
 * One 2026 calibration (xln3/platform-v2) found the stream relayed by the
 * page's Service Worker, which a page-level CDP session does not see and the
 * kit's worker capture (crawler/web/capture-workers.ts: dedicated and shared
 * workers) does not attach to yet: on such a build the sub task fails as
 * no chat call seen, never with a partial answer (docs/web-channel.md, Yiyan). The session is the `BAIDUID` / `BDUSS_BFESS` cookies.
 */
import type { CapturedStream, Evidence } from '../../types.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { eventReader } from '../../../web/read-frames.js';
import { chatCallFailure } from './envelope.js';
import { askedMode, effectiveMode } from './mode.js';
import { PAGE } from './page.js';
import { frameText, SITE, WenxinStream } from './stream.js';

/** The parser as the kit reads with it: each event into the evidence before it is applied. */
const wenxinReader = (evidence: Evidence) => {
  const stream = new WenxinStream();
  return eventReader(evidence, stream, frameText, () => stream.frames > 0);
};

export const WENXIN: SiteSpec<ReturnType<typeof wenxinReader>> = {
  site: SITE,
  // The chat opens at the root (yiyan.baidu.com lands on wenxin.baidu.com); a chat's own
  // page is /chat/<sessionId>. Login is Baidu's passport layer over the page, or its page.
  urls: { start: '/', login: '/' },
  // Baidu's hosts: the landing host, passport, static and the acs script's hosts **[inferred]**.
  real: {
    host: /^(yiyan|wenxin)\.baidu\.com$/,
    origins: [
      'https://*.baidu.com',
      'https://*.bdstatic.com',
      'https://*.bcebos.com',
      'https://*.baidubce.com',
    ],
  },
  call: {
    url: /\/eb\/chat\/conversation\/v2(?:\?|$)/,
    streams: (s: CapturedStream) => s.status === 200 && /event-stream/.test(s.mimeType),
    failure: chatCallFailure,
  },
  ...PAGE,
  frames: ({ evidence }) => wenxinReader(evidence),
  effectiveMode: (_body, reader) => effectiveMode(reader.parser.stream.ran()),
  asked: askedMode,
  stallMs: () => 20_000,
};
