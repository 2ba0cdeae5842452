/**
 * Gemini's chat page (gemini.google.com/app) on the site-driver kit
 * (crawler/web/site-driver.ts): the page carries its `SNlM0e` token (`at`)
 * in `WIZ_global_data` and its session in the `__Secure-1PSID` /
 * `__Secure-1PSIDTS` cookies, and makes the call itself:
 * `POST /_/BardChatUi/data/assistant.lamda.BardFrontendService/StreamGenerate`
 * with a form body `f.req=…&at=…`. The kit reads that call and this file
 * feeds it to the parser (stream.ts), which locates the answer, its sources
 * and its thoughts by shape and records where it found them. Completion: the
 * response's `e` envelope; without it the page decides.
 */
import type { CapturedStream, Evidence } from '../../types.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { readerOver } from '../../../web/read-frames.js';
import type { RpcChunk } from './rpc-frames.js';
import { chatCallFailure } from './envelope.js';
import { effectiveMode } from './mode.js';
import { PAGE } from './page.js';
import { GeminiStream, SITE } from './stream.js';

/** The parser as the kit reads with it: each chunk into the evidence before it is applied. */
const geminiReader = (evidence: Evidence) => {
  const stream = new GeminiStream();
  let shape = '';
  const take = (chunks: RpcChunk[]) => {
    for (const c of chunks) {
      evidence.frame(c.text);
      stream.apply(c);
    }
    // Which indexes answered: they move between builds, so the evidence says where they were.
    if (stream.snapshots > 0 && stream.shape !== shape) {
      shape = stream.shape;
      evidence.note(`the answer's shape: ${shape} (${stream.formatVersion})`);
    }
  };
  const feed = {
    stream,
    push: (chunk: Buffer) => take(stream.push(chunk)),
    end: () => take(stream.end()),
  };
  return readerOver(feed, {
    complete: () => stream.finished,
    formatVersion: () => (stream.snapshots > 0 ? stream.formatVersion : undefined),
    read: () => stream.result(),
    report: () => stream.report(),
  });
};

export const GEMINI: SiteSpec<ReturnType<typeof geminiReader>> = {
  site: SITE,
  urls: { start: '/app', login: '/app' },
  // Google's sign-in, static and image hosts **[inferred]**.
  real: {
    host: /^gemini\.google\.com$/,
    origins: [
      'https://accounts.google.com',
      'https://*.google.com',
      'https://*.gstatic.com',
      'https://*.googleusercontent.com',
      'https://*.googleapis.com',
    ],
  },
  call: {
    url: /\/assistant\.lamda\.BardFrontendService\/StreamGenerate(?:\?|$)/,
    // The stream is `application/json` behind its `)]}'` guard; errors are HTML pages.
    streams: (s: CapturedStream) => s.status === 200 && !/html/.test(s.mimeType),
    failure: chatCallFailure,
  },
  ...PAGE,
  frames: ({ evidence }) => geminiReader(evidence),
  effectiveMode: (_body, reader) => effectiveMode(reader.parser.stream.ran()),
  stallMs: () => 20_000,
};
