/**
 * Perplexity Sonar: OpenAI-style chat where search is on unless
 * `disable_search` says otherwise. Reasoning models write `<think>…</think>`
 * into the content (moved out by buildAnswer). Sources are the top-level
 * `search_results` (or the `citations` URL list); the answer cites them with
 * 1-based `[n]` markers; `related_questions` and `images` come when asked for.
 */
import type { PlatformDriver } from '../types.js';
import { hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

export const perplexityDriver: PlatformDriver = {
  name: 'perplexity',
  apiDefaults: {
    baseUrl: 'https://api.perplexity.ai',
    models: {
      standard: 'sonar',
      reasoning: 'sonar-reasoning-pro',
      search: 'sonar-pro',
      reasoning_search: 'sonar-reasoning-pro',
    },
    timeoutMs: 180_000,
  },
  api: chatDriver({
    platform: 'perplexity',
    path: '/chat/completions',
    switches: (mode) =>
      hasSearch(mode)
        ? { return_related_questions: true, return_images: true }
        : { disable_search: true },
  }),
};
