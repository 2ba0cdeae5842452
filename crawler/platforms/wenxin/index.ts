/**
 * Baidu Qianfan v2 (ERNIE), OpenAI-compatible. Reasoning is the ERNIE X1
 * model (`reasoning_content`); search is `web_search` with citations
 * (`^[n]^` markers) and the trace that returns `search_results[]`.
 */
import type { PlatformDriver } from '../types.js';
import { hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

export const wenxinDriver: PlatformDriver = {
  name: 'wenxin',
  apiDefaults: {
    baseUrl: 'https://qianfan.baidubce.com/v2',
    models: {
      standard: 'ernie-4.5-turbo-32k',
      reasoning: 'ernie-x1-turbo-32k',
      search: 'ernie-4.5-turbo-32k',
      reasoning_search: 'ernie-x1-turbo-32k',
    },
    timeoutMs: 180_000,
  },
  api: chatDriver({
    platform: 'wenxin',
    path: '/chat/completions',
    switches: (mode) =>
      hasSearch(mode)
        ? { web_search: { enable: true, enable_citation: true, enable_trace: true } }
        : {},
    refusalReasons: ['content_filter'],
  }),
};
