/**
 * What the replica streams for one prompt: the Connect messages of the
 * current build (`kimi-connect-1`) and the SSE events of the older build
 * (`kimi-sse-legacy`), for a normal answer and for each misbehaviour the
 * site shows (see crawler/platforms/kimi/web/connect-format.ts and
 * legacy-format.ts for the formats and their sources).
 */
import type { Variant } from '../common/site.js';
import type { StreamVariant } from '../common/stream-variants.js';
import { pieces, replicaAnswer, type ReplicaAnswer, type ReplicaMode } from './answers.js';

/** This replica's stream drift variants (`#replica:<name>`), for the site-contract test. */
export const STREAM_VARIANTS = [
  {
    name: 'late_events',
    expect: 'answer',
    what: 'a title update and a stray text append after `done`',
  },
  {
    name: 'early_events',
    expect: 'answer',
    what: 'a frame without op or mask, an unknown message mask and an extra field before `done`',
  },
  {
    name: 'renamed_field',
    expect: 'witness',
    what: 'the text blocks name `content` as `value`',
  },
  {
    name: 'kimi_2026',
    expect: 'answer',
    what: 'search as block.tool (web_search:1) and message.refs, citations as private-use cite marks',
  },
] as const satisfies readonly StreamVariant[];
export type StreamVariantName = (typeof STREAM_VARIANTS)[number]['name'];

/** The private-use cite mark of a 2026 capture for result k of search call 1. */
const puaCite = (k: string) => `\uE200cite\uE202web_search:1#${k}\uE201`;

/** One Connect message: its JSON and whether it is the end-of-stream envelope. */
export interface ConnectMessage {
  json: unknown;
  end?: boolean;
}

/** Kimi's quota message (30 long-text rounds per 3 hours per account). */
export const QUOTA_MESSAGE = '当前长文本对话次数已达上限（每 3 小时 30 轮），请稍后再试';
export const REFUSAL_NOTICE = '抱歉，这个问题我暂时无法回答，我们换个话题吧';
export const CAPTCHA_MESSAGE = '请完成滑块验证后继续';
/** In a prompt: the stream ends without `done` and the end-of-stream envelope. */
export const NO_END_MARKER = '#kimi:no_end_marker';
export const EXPIRED_MESSAGE = 'auth.token.invalid: 登录已过期，请重新登录';

const ids = (prompt: string) => {
  const h = Array.from(prompt).reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7);
  const s = h.toString(36).padStart(7, '0');
  return { chat: `d4${s}chat`, user: `19b7${s}-u`, assistant: `19b7${s}-a` };
};

function opening(prompt: string): ConnectMessage[] {
  const id = ids(prompt);
  return [
    { json: { op: 'set', mask: 'chat', chat: { id: id.chat, name: '新会话' } } },
    {
      json: {
        op: 'set',
        mask: 'message',
        message: { id: id.user, role: 'user', status: 'MESSAGE_STATUS_COMPLETED' },
      },
    },
    {
      json: {
        op: 'set',
        mask: 'message',
        message: {
          id: id.assistant,
          parentId: id.user,
          role: 'assistant',
          status: 'MESSAGE_STATUS_GENERATING',
        },
      },
    },
    { json: { heartbeat: {} } },
  ];
}

const endError = (code: string, message: string): ConnectMessage => ({
  json: { error: { code, message } },
  end: true,
});

export function connectMessages(
  prompt: string,
  mode: ReplicaMode,
  siteUrl: string,
  variant: Variant | undefined,
  expired: boolean,
  drift?: StreamVariantName,
): ConnectMessage[] {
  const id = ids(prompt);
  if (expired || variant === 'expired') return [endError('unauthenticated', EXPIRED_MESSAGE)];
  const out = opening(prompt);
  if (variant === 'rate_limit') return [...out, endError('resource_exhausted', QUOTA_MESSAGE)];
  if (variant === 'captcha') return [...out, endError('permission_denied', CAPTCHA_MESSAGE)];
  if (variant === 'refusal') {
    return [
      ...out,
      {
        json: {
          op: 'set',
          mask: 'message.status',
          message: { id: id.assistant, status: 'MESSAGE_STATUS_BLOCKED', notice: REFUSAL_NOTICE },
        },
      },
      { json: { done: {} } },
      { json: {}, end: true },
    ];
  }
  const answer = replicaAnswer(prompt, mode, siteUrl);
  if (answer.think) {
    out.push({
      json: {
        op: 'set',
        mask: 'block.stage',
        block: {
          id: 'stage-0',
          stage: { name: 'STAGE_NAME_THINKING', status: 'STAGE_STATUS_START' },
        },
      },
    });
    out.push({
      json: { op: 'set', mask: 'block.think', block: { id: 'think-0', think: { content: '' } } },
    });
    for (const p of pieces(answer.think)) {
      out.push({
        json: {
          op: 'append',
          mask: 'block.think.content',
          block: { id: 'think-0', think: { content: p } },
        },
      });
    }
  }
  const v2026 = drift === 'kimi_2026';
  if (answer.results.length > 0 && v2026) out.push(...toolFrames(answer));
  else if (answer.results.length > 0) {
    out.push({
      json: {
        op: 'set',
        mask: 'block.search',
        block: { id: 'search-0', search: { results: answer.results } },
      },
    });
  }
  const textKey = drift === 'renamed_field' ? 'value' : 'content';
  out.push({
    json: { op: 'set', mask: 'block.text', block: { id: 'text-0', text: { [textKey]: '' } } },
  });
  const text = v2026
    ? answer.text.replace(/\[\^(\d+)\^\]/g, (_, k: string) => puaCite(k))
    : answer.text;
  const textPieces = pieces(text);
  textPieces.forEach((p, i) => {
    out.push({
      json: {
        op: 'append',
        mask: 'block.text.content',
        block: { id: 'text-0', text: { [textKey]: p } },
        ...(drift === 'early_events' && { seq: i }),
      },
    });
    if (i === 2) out.push({ json: { heartbeat: {} } });
    if (i === 2 && drift === 'early_events') {
      out.push({ json: { telemetry: { stage: 'answering' } } });
      out.push({
        json: { op: 'set', mask: 'message.feedback', message: { id: id.assistant, feedback: {} } },
      });
    }
    if (i === 3 && variant === 'unknown_frame') {
      out.push({
        json: {
          op: 'set',
          mask: 'block.widget',
          block: { id: 'widget-0', widget: { type: 'WIDGET_TYPE_STOCK', symbol: 'SH600000' } },
        },
      });
    }
  });
  out.push({
    json: {
      op: 'set',
      mask: 'message.suggestions',
      message: { id: id.assistant, suggestions: answer.suggestions },
    },
  });
  out.push({
    json: {
      op: 'set',
      mask: 'message.status',
      message: { id: id.assistant, status: 'MESSAGE_STATUS_COMPLETED' },
    },
  });
  // Kimi-only directive: the connection closes without the end marker (DOM fallback tests).
  if (prompt.includes(NO_END_MARKER)) return out;
  out.push({ json: { done: {} } });
  if (drift === 'late_events') {
    out.push({ json: { op: 'set', mask: 'chat.title', chat: { id: id.chat, title: '新会话' } } });
    out.push({
      json: { op: 'append', mask: 'block.text', block: { id: 'text-0', text: { content: '多' } } },
    });
  }
  out.push({ json: {}, end: true });
  return out;
}

/**
 * Search the 2026 way: one `block.tool` call (`web_search:1`) with its
 * `contents[].searchResult`, mirrored to `message.refs.searchChunks`, the
 * cited ones (1 and 3, as the answer's marks) in `usedSearchChunks`.
 */
function toolFrames(answer: ReplicaAnswer): ConnectMessage[] {
  const chunks = answer.results.map((r, i) => ({
    searchResult: {
      base: { title: r.title, url: r.url, siteName: r.siteName, iconUrl: r.icon, snippet: '' },
      refIndex: i + 1,
    },
  }));
  const tool = (extra: object) => ({
    id: 'tool-0',
    tool: { toolCallId: 'web_search:1', name: 'web_search', ...extra },
  });
  return [
    { json: { op: 'set', mask: 'block.tool', block: tool({ args: '{"queries":["q"]}' }) } },
    { json: { op: 'set', mask: 'block.tool.contents', block: tool({ contents: chunks }) } },
    {
      json: {
        op: 'set',
        mask: 'message.refs',
        message: {
          refs: {
            searchChunks: chunks.map((c) => c.searchResult),
            usedSearchChunks: [chunks[0]!.searchResult, chunks[2]!.searchResult],
          },
        },
      },
    },
  ];
}

/** The older build's SSE events (data JSON) for the same answer; the k1 model's reasoning as `k1`. */
export function legacyEvents(
  prompt: string,
  mode: ReplicaMode,
  siteUrl: string,
  chatId: string,
): unknown[] {
  const answer = replicaAnswer(prompt, mode, siteUrl);
  const out: unknown[] = [
    { event: 'req', id: `${chatId}-req`, group_id: chatId },
    { event: 'resp', id: `${chatId}-resp`, group_id: chatId },
  ];
  for (const p of answer.think ? pieces(answer.think) : []) out.push({ event: 'k1', text: p });
  if (answer.results.length > 0) {
    out.push({ event: 'search_plus', msg: { type: 'start' } });
    for (const r of answer.results) {
      out.push({
        event: 'search_plus',
        msg: { type: 'get_res', title: r.title, url: r.url, site_name: r.siteName, icon: r.icon },
      });
    }
    out.push({ event: 'search_plus', msg: { type: 'answer' } });
  }
  for (const p of pieces(answer.text)) out.push({ event: 'cmpl', text: p, view: 'cmpl' });
  out.push({ event: 'ping' });
  out.push({ event: 'all_done' });
  return out;
}
