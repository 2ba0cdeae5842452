/**
 * Zhipu GLM: OpenAI-style chat with `thinking.type` for reasoning
 * (`reasoning_content`) and the `web_search` tool for search. Sources come as
 * a top-level `web_search[]` (URL in `link`, site in `media`, label in
 * `refer`: `ref_1`…), which the answer cites as `[ref_n]`.
 */
import type { ApiDriver } from '../types.js';
import { hasReasoning, hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

export const zhipuApi: ApiDriver = chatDriver({
  platform: 'zhipu',
  path: '/chat/completions',
  switches: (mode) => ({
    thinking: { type: hasReasoning(mode) ? 'enabled' : 'disabled' },
    ...(hasSearch(mode)
      ? {
          tools: [
            {
              type: 'web_search',
              // search_result defaults to false: without it no sources come back.
              web_search: { enable: true, search_engine: 'search_std', search_result: true },
            },
          ],
        }
      : {}),
  }),
  refusalReasons: ['sensitive'],
});
