/**
 * Qwen's chat page on the site-driver kit (crawler/web/site-driver.ts). The
 * page's own script creates the chat (`POST /api/v2/chats/new`), adds the
 * baxia signatures (`bx-ua`, `bx-umidtoken`) and sends `POST
 * /api/v2/chat/completions?chat_id=…` with the session's JWT (localStorage
 * `token`) as Bearer; the domestic site's page sends `POST
 * /dialog/conversation` with its `tongyi_sso_ticket` cookie. The kit reads
 * whichever the page makes and this file feeds its SSE stream to the
 * parser (stream.ts), which records the format that answered. A call
 * without the signatures gets the WAF's HTML page: a named `captcha` /
 * `blocked` outcome (envelope.ts), never a parse error.
 */
import type { CapturedStream, Evidence } from '../../types.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { eventReader } from '../../../web/read-frames.js';
import { chatCallFailure } from './envelope.js';
import { askedMode, effectiveMode } from './mode.js';
import { PAGE } from './page.js';
import { frameText, QwenStream, SITE } from './stream.js';

/** The parser as the kit reads with it: each event into the evidence before it is applied. */
const qwenReader = (evidence: Evidence) => {
  const stream = new QwenStream();
  return eventReader(evidence, stream, frameText);
};

export const QWEN: SiteSpec<ReturnType<typeof qwenReader>> = {
  site: SITE,
  // A new chat opens at the root; a chat's own page is /c/<chatId>. Sign-in is /auth.
  urls: { start: '/', login: '/auth?action=signin' },
  // Alibaba's static, login and telemetry hosts **[inferred]**.
  real: {
    host: /^(?:chat\.qwen\.ai|(?:www\.)?qianwen\.com|tongyi\.aliyun\.com)$/,
    origins: [
      'https://*.qwen.ai',
      'https://*.qianwen.com',
      'https://*.aliyun.com',
      'https://*.alicdn.com',
      'https://*.alibaba.com',
      'https://*.aliyuncs.com',
      'https://*.mmstat.com',
    ],
  },
  call: {
    url: /\/api\/v2\/chat\/completions(?:\?|$)|\/dialog\/conversation(?:\?|$)/,
    // Errors come as a JSON envelope (often HTTP 200) or the WAF's HTML page.
    streams: (s: CapturedStream) => s.status === 200 && /event-stream/.test(s.mimeType),
    failure: chatCallFailure,
  },
  ...PAGE,
  frames: ({ evidence }) => qwenReader(evidence),
  effectiveMode: (_body, reader) => effectiveMode(reader.parser.stream.ran()),
  asked: askedMode,
  stallMs: () => 20_000,
};
