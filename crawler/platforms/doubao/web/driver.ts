/**
 * Doubao's chat page on the site-driver kit (crawler/web/site-driver.ts).
 * The page sends its chat call from a SharedWorker (the capture reaches it
 * through the worker target, crawler/web/capture.ts), or from the page itself
 * as older builds did, signed by the page's own `a_bogus` / `msToken`.
 * Completion: the stream's end marker; without it the page decides, and the
 * DOM's answer (with its videos) is read. The
 * effective mode: what the stream showed (common/ran-mode.ts), else the
 * request body's `need_deep_think` / `need_web_search`.
 */
import type { Evidence } from '../../types.js';
import type { SiteSpec } from '../../../web/site-spec.js';
import { readerOver } from '../../../web/read-frames.js';
import { emptyRaw } from '../../common/raw-answer.js';
import { askedMode, effectiveMode } from './mode.js';
import { CONTROLS, SEL, domAnswer, openSources } from './page.js';
import { SITE } from './site-errors.js';
import { DoubaoStream } from './stream.js';

const doubaoReader = (evidence: Evidence) => {
  const parser = new DoubaoStream((frame) => evidence.frame(frame));
  return readerOver(parser, {
    complete: () => parser.done,
    formatVersion: () => (parser.done ? (parser.version ?? 'doubao-2026') : undefined),
    // Without its end marker the stream's part is left to the page, which shows the whole answer.
    read: () => (parser.done ? parser.result() : emptyRaw()),
    report: () => parser.report(),
  });
};

export const DOUBAO: SiteSpec<ReturnType<typeof doubaoReader>> = {
  site: SITE,
  urls: { start: '/chat/', login: '/chat/?from_login=1' },
  // Its API, sign-in, CDNs and media.
  real: {
    host: /(^|\.)doubao\.com$/,
    origins: [
      'https://www.doubao.com',
      'https://*.doubao.com',
      'https://*.byteimg.com',
      'https://*.bytescm.com',
      'https://*.bytegoofy.com',
      'https://*.byteacctimg.com',
      'https://*.snssdk.com',
      'https://*.zijieapi.com',
      'https://*.douyinpic.com',
      'https://*.ibytedapm.com',
    ],
  },
  // The 2026 and samantha paths (`?aid=…&a_bogus=…` follows).
  call: { url: /\/(?:samantha\/)?chat\/completion(?:\?|$)/ },
  walls: { login: ['抖音', '豆包 App'] },
  controls: {
    thinking: CONTROLS.deepThinking,
    search: CONTROLS.webSearch,
    send: { names: ['发送', 'Send'], fallbacks: ['#flow-end-msg-send'] },
    newChat: {
      names: ['新对话', 'New chat'],
      fallbacks: ['[data-testid="create_conversation_button"]'],
    },
    // The 快速 / 专家 picker names the model that answers **[inferred]**; the switches name none.
    modelLabel: CONTROLS.deepThinking,
  },
  // The page shows the whole answer: text, reasoning, every source (all cited), videos, follow-ups.
  dom: { answer: SEL.content, stop: SEL.stop, read: domAnswer, whole: true },
  openSources,
  frames: ({ evidence }) => doubaoReader(evidence),
  effectiveMode: (body, reader, answer) =>
    effectiveMode(body, {
      deepThink: reader.parser.deepThinkSeen || answer.reasoningProcess !== null,
      sources: answer.referenceList.length > 0,
    }),
  asked: askedMode,
};
