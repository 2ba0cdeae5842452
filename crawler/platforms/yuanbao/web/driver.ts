/**
 * Yuanbao's chat page on the site-driver kit (crawler/web/site-driver.ts):
 * the page's script creates the conversation and signs each chat call
 * (`x-uskey`, `x-timestamp`, `x-bus-params-md5`: single use, so projects
 * that replayed them were banned in October 2025, chenwr727/yuanbao-free-api
 * issue 34); the kit reads the page's own `POST /api/chat/{conversationId}`
 * and this file feeds its SSE stream to the parser (stream.ts). Completion:
 * `data: [DONE]`; frames after it are recorded, never applied. When the
 * stream announced a search without its docs, the conversation's detail is
 * read again through the page. The effective mode is what the stream shows
 * ran: thinking frames, a search doc list.
 */
import type { Page } from 'playwright';
import type { CapturedStream, Evidence } from '../../types.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { eventReader } from '../../../web/read-frames.js';
import { docsOfDetail } from './detail.js';
import { chatCallFailure } from './envelope.js';
import { askedMode, effectiveMode } from './mode.js';
import { PAGE } from './page.js';
import { frameText, SITE, YuanbaoStream } from './stream.js';

const DETAIL_PATH = '/api/user/agent/conversation/v1/detail';

/** The parser as the kit reads with it: each event into the evidence before it is applied. */
const yuanbaoReader = (evidence: Evidence) => {
  const stream = new YuanbaoStream();
  return eventReader(evidence, stream, frameText, () => stream.frames > 0);
};

/** The conversation's docs as the site stored them, read with the page's own session. */
async function detailDocs(page: Page, conversationId: string): Promise<unknown[] | undefined> {
  const detail = await page.evaluate(
    async ([path, id]) => {
      const r = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ conversationId: id }),
      });
      return r.ok ? ((await r.json()) as unknown) : null;
    },
    [DETAIL_PATH, conversationId] as const,
  );
  return docsOfDetail(detail);
}

export const YUANBAO: SiteSpec<ReturnType<typeof yuanbaoReader>> = {
  site: SITE,
  // A new chat opens at /chat; a chat's own page is /chat/<agentId>/<conversationId>.
  // Login is a dialog the page's 登录 button opens: the person clicks it and scans.
  urls: { start: '/chat', login: '/chat' },
  // Tencent's static and login hosts, the WeChat QR frame on open.weixin.qq.com **[inferred]**.
  real: {
    host: /^yuanbao\.tencent\.com$/,
    origins: [
      'https://*.tencent.com',
      'https://*.qq.com',
      'https://*.gtimg.cn',
      'https://*.gtimg.com',
      'https://*.qpic.cn',
    ],
  },
  call: {
    url: /\/api\/chat\/[\w-]+(?:\?|$)/,
    // Errors come as JSON ({"error": {"code", "message"}}), a 401 for a lost session.
    streams: (s: CapturedStream) => s.status === 200 && /event-stream/.test(s.mimeType),
    failure: chatCallFailure,
  },
  ...PAGE,
  frames: ({ evidence }) => yuanbaoReader(evidence),
  async afterFrames({ page, reader, stream, evidence }) {
    const { stream: parser } = reader.parser;
    if (!parser.announcedSearch || parser.hasDocs) return;
    evidence.note(
      'the stream announced a search without its docs: reading the conversation detail',
    );
    const docs = await detailDocs(page, new URL(stream.url).pathname.split('/').pop()!);
    if (docs) parser.setDocs(docs);
  },
  effectiveMode: (_body, reader) => effectiveMode(reader.parser.stream.ran()),
  asked: askedMode,
  stallMs: () => 20_000,
};
