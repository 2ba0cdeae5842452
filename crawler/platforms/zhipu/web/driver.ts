/**
 * ChatGLM's chat page (chatglm.cn) on the site-driver kit
 * (crawler/web/site-driver.ts): the page's script refreshes its access
 * token from the `chatglm_refresh_token` cookie (`/user/refresh`), signs
 * each chat call (`X-Sign`, `X-Nonce`, `X-Timestamp`) and makes it; the kit
 * reads the page's own `POST /chatglm/backend-api/assistant/stream` and this
 * file feeds its SSE stream to the parser (stream.ts), whose frames are
 * cumulative snapshots: the answer is the last one. Completion: the frame
 * with `status: "finish"` (or `intervene`, a refusal). ChatGLM allows one
 * live stream per account: the account's hold (one sub task at a time) and
 * the kit's closing of a page whose sub task failed keep it so.
 */
import type { CapturedStream, Evidence } from '../../types.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { eventReader } from '../../../web/read-frames.js';
import { chatCallFailure } from './envelope.js';
import { askedMode, effectiveMode } from './mode.js';
import { PAGE } from './page.js';
import { frameText, SITE, ZhipuStream } from './stream.js';

/** The parser as the kit reads with it: each event into the evidence before it is applied. */
const zhipuReader = (evidence: Evidence) => {
  const stream = new ZhipuStream();
  return eventReader(evidence, stream, frameText, () => stream.snapshots > 0);
};

export const ZHIPU: SiteSpec<ReturnType<typeof zhipuReader>> = {
  site: SITE,
  // The all-tools chat opens at /main/alltoolsdetail (glm-free-api's Referer); a chat's own
  // page adds `?cid=<conversation>`. Login is a dialog the page's 登录 button opens.
  urls: { start: '/main/alltoolsdetail', login: '/main/alltoolsdetail' },
  // Zhipu's static and login hosts **[inferred]**.
  real: {
    host: /^chatglm\.cn$/,
    origins: ['https://*.chatglm.cn', 'https://*.zhipuai.cn', 'https://*.bigmodel.cn'],
  },
  call: {
    url: /\/chatglm\/backend-api\/assistant\/stream(?:\?|$)/,
    // Errors come as JSON ({code | status, message}), sometimes with HTTP 200.
    streams: (s: CapturedStream) => s.status === 200 && /event-stream/.test(s.mimeType),
    failure: chatCallFailure,
  },
  ...PAGE,
  frames: ({ evidence }) => zhipuReader(evidence),
  effectiveMode: (_body, reader) => effectiveMode(reader.parser.stream.ran()),
  asked: askedMode,
  stallMs: () => 20_000,
};
