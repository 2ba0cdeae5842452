/**
 * Perplexity's answer page (www.perplexity.ai) on the site-driver kit
 * (crawler/web/site-driver.ts): the page's own script makes the answer call
 * with the session of the `__Secure-next-auth.session-token` cookie; the
 * kit reads its `POST /rest/sse/perplexity_ask` and this file feeds its SSE
 * stream to the parser (stream.ts), whose blocks are patched by
 * `diff_block`s. Completion: `final_sse_message: true` (or
 * `end_of_stream`). The mode is set through the model picker and the
 * sources menu's Web switch (mode.ts); the effective mode is what the
 * stream shows ran: plan goal steps, web results.
 */
import type { CapturedStream, Evidence } from '../../types.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { eventReader } from '../../../web/read-frames.js';
import { chatCallFailure } from './envelope.js';
import { askedMode, effectiveMode } from './mode.js';
import { PAGE } from './page.js';
import { frameText, PerplexityStream, SITE } from './stream.js';

/** The parser as the kit reads with it: each event into the evidence before it is applied. */
const perplexityReader = (evidence: Evidence) => {
  const stream = new PerplexityStream();
  return eventReader(evidence, stream, frameText, () => stream.frames > 0);
};

export const PERPLEXITY: SiteSpec<ReturnType<typeof perplexityReader>> = {
  site: SITE,
  // The home page is the composer; an answer's own page is /search/<slug>.
  urls: { start: '/', login: '/' },
  // Perplexity's static and Cloudflare hosts **[inferred]**.
  real: {
    host: /^(?:www\.)?perplexity\.ai$/,
    origins: ['https://*.perplexity.ai', 'https://*.pplx.ai', 'https://challenges.cloudflare.com'],
  },
  call: {
    url: /\/rest\/sse\/perplexity[._]ask(?:\?|$)/,
    // Errors come as JSON, a Cloudflare challenge as HTML.
    streams: (s: CapturedStream) => s.status === 200 && /event-stream/.test(s.mimeType),
    failure: chatCallFailure,
  },
  ...PAGE,
  frames: ({ evidence }) => perplexityReader(evidence),
  async afterFrames({ reader, evidence }) {
    const { stream } = reader.parser;
    if (stream.displayModel) evidence.note(`the stream names the model ${stream.displayModel}`);
  },
  effectiveMode: (_body, reader) => effectiveMode(reader.parser.stream.ran()),
  asked: askedMode,
  stallMs: () => 20_000,
};
