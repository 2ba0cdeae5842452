/**
 * Baidu Qianfan v2 (ERNIE), OpenAI-compatible. Reasoning is the ERNIE X1
 * model (`reasoning_content`); search is `web_search` with citations
 * (`^[n]^` markers) and the trace that returns `search_results[]`.
 */
import type { ApiDriver } from '../types.js';
import { hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

export const wenxinApi: ApiDriver = chatDriver({
  platform: 'wenxin',
  path: '/chat/completions',
  switches: (mode) =>
    hasSearch(mode)
      ? { web_search: { enable: true, enable_citation: true, enable_trace: true } }
      : {},
  refusalReasons: ['content_filter'],
});
