/**
 * ChatGPT's chat page (chatgpt.com) on the site-driver kit
 * (crawler/web/site-driver.ts): the page's script takes its access token
 * from `GET /api/auth/session` (the `__Secure-next-auth.session-token`
 * cookie's session), asks `POST /backend-api/sentinel/chat-requirements`
 * for its token and proof-of-work challenge, computes the proof itself and
 * sends `POST /backend-api/f/conversation` (older builds
 * `/backend-api/conversation`) with the `openai-sentinel-*` headers. The
 * driver never makes or signs a call: the kit reads the page's own chat
 * call and this file feeds its SSE stream to the parser (stream.ts), in
 * either encoding. Completion: `message_stream_complete`, then
 * `data: [DONE]`.
 */
import type { CapturedStream, Evidence } from '../../types.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { eventReader } from '../../../web/read-frames.js';
import { chatCallFailure } from './envelope.js';
import { askedMode, effectiveMode } from './mode.js';
import { PAGE } from './page.js';
import { ChatgptStream, frameText, SITE } from './stream.js';

/** The parser as the kit reads with it: each event into the evidence before it is applied. */
const chatgptReader = (evidence: Evidence) => {
  const stream = new ChatgptStream();
  return eventReader(evidence, stream, frameText, () => stream.frames > 0);
};

export const CHATGPT: SiteSpec<ReturnType<typeof chatgptReader>> = {
  site: SITE,
  // A new chat opens at the root; a chat's own page is /c/<conversationId>.
  urls: { start: '/', login: '/auth/login' },
  // OpenAI's static, login and challenge hosts **[inferred]**.
  real: {
    host: /^chatgpt\.com$/,
    origins: [
      'https://*.chatgpt.com',
      'https://*.oaistatic.com',
      'https://*.oaiusercontent.com',
      'https://*.openai.com',
      'https://challenges.cloudflare.com',
    ],
  },
  call: {
    url: /\/backend-api\/(?:f\/)?conversation(?:\?|$)/,
    // Errors come as JSON ({"detail": …}) or as Cloudflare's HTML challenge.
    streams: (s: CapturedStream) => s.status === 200 && /event-stream/.test(s.mimeType),
    failure: chatCallFailure,
    // The page computes its proof of work between send and the call.
    waitMs: 15_000,
  },
  ...PAGE,
  frames: ({ evidence }) => chatgptReader(evidence),
  effectiveMode: (_body, reader) => effectiveMode(reader.parser.stream.ran()),
  asked: askedMode,
  stallMs: () => 20_000,
};
