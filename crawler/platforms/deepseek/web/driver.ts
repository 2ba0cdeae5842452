/**
 * DeepSeek's chat page on the site-driver kit (crawler/web/site-driver.ts):
 * the page's script creates the session and solves the proof-of-work for
 * `X-Ds-Pow-Response`; the kit reads the page's own chat call and this file
 * feeds its patch stream to the parser (stream.ts). Completion:
 * `response/status` FINISHED; events after it are recorded, never applied.
 * The effective mode is what the stream showed (thinking frames, search
 * results; common/ran-mode.ts), else what the captured request asked for
 * (`thinking_enabled`, `search_enabled`).
 */
import type { CapturedStream, Evidence } from '../../types.js';
import type { FrameReader, SiteSpec } from '../../../web/site-spec.js';
import { chatCallFailure } from './envelope.js';
import { askedMode, effectiveMode } from './mode.js';
import { PAGE } from './page.js';
import { DeepseekStream, frameText, SITE } from './stream.js';

/** The parser as the kit reads with it: each event into the evidence before it is applied. */
class DeepseekReader implements FrameReader {
  readonly parser = new DeepseekStream();
  constructor(private readonly evidence: Evidence) {}
  push(chunk: Buffer) {
    for (const e of this.parser.push(chunk)) this.take(e);
  }
  end() {
    for (const e of this.parser.end()) this.take(e);
  }
  private take(e: ReturnType<DeepseekStream['end']>[number]) {
    this.evidence.frame(frameText(e));
    this.parser.apply(e);
  }
  get complete() {
    return this.parser.finished;
  }
  get formatVersion() {
    return this.parser.frames > 0 ? this.parser.formatVersion : undefined;
  }
  read() {
    return this.parser.result();
  }
  report() {
    return this.parser.report();
  }
}

export const DEEPSEEK: SiteSpec<DeepseekReader> = {
  site: SITE,
  // A new chat opens at the site's root; a chat's own page is /a/chat/s/<id>.
  urls: { start: '/', login: '/sign_in' },
  // Static files and icons on *.deepseek.com, an hCaptcha or Cloudflare challenge **[hosts unverified]**.
  real: {
    host: /^chat\.deepseek\.com$/,
    origins: [
      'https://*.deepseek.com',
      'https://hcaptcha.com',
      'https://*.hcaptcha.com',
      'https://challenges.cloudflare.com',
    ],
  },
  call: {
    url: /\/api\/v0\/chat\/completion(?:\?|$)/,
    // Errors come as a JSON envelope, often with status 200.
    streams: (s: CapturedStream) => s.status === 200 && /event-stream/.test(s.mimeType),
    failure: chatCallFailure,
    // The page's own session and proof-of-work come first.
    waitMs: 30_000,
  },
  ...PAGE,
  frames: ({ evidence }) => new DeepseekReader(evidence),
  effectiveMode: (body, reader) => effectiveMode(body, reader.parser),
  asked: askedMode,
  stallMs: () => 20_000,
};
