/**
 * Tencent Hunyuan (the model behind Yuanbao), OpenAI-compatible endpoint.
 * Search is `enable_enhancement` (off by default since 2025-04) forced on,
 * with `search_info` for the sources and `citation` for markers;
 * `enable_recommended_questions` adds follow-up questions to the last chunk.
 * Reasoning is the thinking model (`reasoning_content`).
 */
import type { ApiDriver } from '../types.js';
import { hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

export const yuanbaoApi: ApiDriver = chatDriver({
  platform: 'yuanbao',
  path: '/chat/completions',
  switches: (mode) =>
    hasSearch(mode)
      ? {
          enable_enhancement: true,
          force_search_enhancement: true,
          search_info: true,
          citation: true,
          enable_recommended_questions: true,
        }
      : { enable_enhancement: false },
  refusalReasons: ['sensitive'],
});
