/**
 * Perplexity Sonar: OpenAI-style chat where search is on unless
 * `disable_search` says otherwise. Reasoning models write `<think>…</think>`
 * into the content (moved out by buildAnswer). Sources are the top-level
 * `search_results` (or the `citations` URL list); the answer cites them with
 * 1-based `[n]` markers; `related_questions` and `images` come when asked for.
 */
import type { ApiDriver } from '../types.js';
import { hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

export const perplexityApi: ApiDriver = chatDriver({
  platform: 'perplexity',
  path: '/chat/completions',
  switches: (mode) =>
    hasSearch(mode)
      ? { return_related_questions: true, return_images: true }
      : { disable_search: true },
});
