/**
 * The OpenAI-style chat vendors as data for the chat stand-in: path, how the
 * vendor reads the mode switches, marker style, where sources and extras go,
 * refusal style and error bodies.
 */
import { ERRORS, type ErrorReply } from './errors.js';
import { IMAGES, RELATED, SOURCES } from './scenario.js';

type Body = Record<string, unknown>;
export interface Mode {
  reasoning: boolean;
  search: boolean;
}

export interface ChatFlavour {
  path: string;
  errors: Record<string, ErrorReply>;
  /** The mode the vendor would run for this request. */
  modeOf(body: Body): Mode;
  marker?: (n: number) => string;
  /** Top-level fields carrying sources and extras for a search answer. */
  extras?(body: Body): Body;
  /** Reasoning inline as `<think>` (Perplexity) instead of `reasoning_content`. */
  thinkInline?: boolean;
  /** The built-in `$web_search` round trip (Kimi). */
  toolRoundTrip?: boolean;
  refusal: { finish: string } | { field: true } | { status: number; body: unknown };
}

const tools = (b: Body) => (Array.isArray(b.tools) ? (b.tools as Body[]) : []);
const thinking = (b: Body) => (b.thinking as { type?: string } | undefined)?.type === 'enabled';
export const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Body) : {});

const sources = (fields: (s: (typeof SOURCES)[number], i: number) => Body) =>
  SOURCES.map((s, i) => fields(s, i));

export const CHAT_FLAVOURS: Record<string, ChatFlavour> = {
  chatgpt: {
    path: '/v1/chat/completions',
    errors: ERRORS.openai!,
    modeOf: (b) => ({ reasoning: /^o\d/.test(String(b.model)), search: false }),
    refusal: { field: true },
  },
  perplexity: {
    path: '/chat/completions',
    errors: ERRORS.perplexity!,
    modeOf: (b) => ({
      reasoning: String(b.model).includes('reasoning'),
      search: b.disable_search !== true,
    }),
    marker: (n) => `[${n}]`,
    thinkInline: true,
    extras: (b) => ({
      citations: SOURCES.map((s) => s.url),
      search_results: sources((s) => ({
        title: s.title,
        url: s.url,
        date: '2025-06-01',
        last_updated: '2025-06-02',
        snippet: '…',
        source: 'web',
      })),
      ...(b.return_related_questions === true ? { related_questions: RELATED } : {}),
      ...(b.return_images === true
        ? {
            images: IMAGES.map((i) => ({
              image_url: i.url,
              origin_url: i.origin,
              height: 400,
              width: 600,
            })),
          }
        : {}),
    }),
    refusal: { finish: 'content_filter' },
  },
  deepseek: {
    path: '/chat/completions',
    errors: ERRORS.deepseek!,
    modeOf: (b) => ({ reasoning: b.model === 'deepseek-reasoner' || thinking(b), search: false }),
    refusal: { finish: 'content_filter' },
  },
  kimi: {
    path: '/v1/chat/completions',
    errors: ERRORS.kimi!,
    modeOf: (b) => ({
      reasoning: String(b.model).includes('thinking') || thinking(b),
      search: tools(b).some(
        (t) => t.type === 'builtin_function' && obj(t.function).name === '$web_search',
      ),
    }),
    toolRoundTrip: true,
    refusal: {
      status: 400,
      body: {
        error: {
          message: 'The request was rejected because it was considered high risk',
          type: 'content_filter',
        },
      },
    },
  },
  zhipu: {
    path: '/api/paas/v4/chat/completions',
    errors: ERRORS.zhipu!,
    modeOf: (b) => ({
      reasoning: thinking(b),
      search: tools(b).some((t) => t.type === 'web_search' && obj(t.web_search).enable === true),
    }),
    marker: (n) => `[ref_${n}]`,
    // Sources come back only with search_result:true.
    extras: (b) =>
      tools(b).some((t) => obj(t.web_search).search_result === true)
        ? {
            web_search: sources((s, i) => ({
              refer: `ref_${i + 1}`,
              title: s.title,
              link: s.url,
              media: s.site,
              icon: s.icon,
              content: '…',
              publish_date: '2025-05-23',
            })),
          }
        : {},
    refusal: { finish: 'sensitive' },
  },
  yuanbao: {
    path: '/v1/chat/completions',
    errors: ERRORS.hunyuan!,
    modeOf: (b) => ({
      reasoning: String(b.model).includes('t1'),
      search: b.enable_enhancement === true,
    }),
    marker: (n) => `[${n}]`,
    extras: (b) => ({
      ...(b.search_info === true
        ? {
            search_info: {
              search_results: sources((s, i) => ({ index: i + 1, title: s.title, url: s.url })),
            },
          }
        : {}),
      ...(b.enable_recommended_questions === true ? { recommended_questions: RELATED } : {}),
    }),
    refusal: { finish: 'sensitive' },
  },
  wenxin: {
    path: '/v2/chat/completions',
    errors: ERRORS.qianfan!,
    modeOf: (b) => ({
      reasoning: String(b.model).includes('x1'),
      search: obj(b.web_search).enable === true,
    }),
    marker: (n) => `^[${n}]^`,
    extras: (b) =>
      obj(b.web_search).enable_trace === true
        ? { search_results: sources((s, i) => ({ index: i + 1, url: s.url, title: s.title })) }
        : {},
    refusal: { finish: 'content_filter' },
  },
  grok: {
    path: '/v1/chat/completions',
    errors: ERRORS.xai!,
    modeOf: (b) => ({ reasoning: b.model === 'grok-3-mini', search: false }),
    refusal: { finish: 'content_filter' },
  },
  doubao: {
    path: '/api/v3/chat/completions',
    errors: ERRORS.ark!,
    modeOf: (b) => ({ reasoning: thinking(b), search: false }),
    refusal: { finish: 'content_filter' },
  },
};
