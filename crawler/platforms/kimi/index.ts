/**
 * Moonshot Kimi: OpenAI-style chat. Thinking models stream
 * `reasoning_content`. Search is the `$web_search` built-in tool: the model
 * answers first with a tool call, which the client echoes back unchanged, and
 * only then answers. Kimi returns no structured sources, so a search answer
 * has no referenceList beyond what the model writes in its text.
 */
import type { PlatformDriver } from '../types.js';
import { hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

export const kimiDriver: PlatformDriver = {
  name: 'kimi',
  apiDefaults: {
    baseUrl: 'https://api.moonshot.cn/v1',
    models: {
      standard: 'kimi-k2-turbo-preview',
      reasoning: 'kimi-k2-thinking',
      search: 'kimi-k2-turbo-preview',
      reasoning_search: 'kimi-k2-thinking',
    },
    timeoutMs: 180_000,
  },
  api: chatDriver({
    platform: 'kimi',
    path: '/chat/completions',
    switches: (mode) =>
      hasSearch(mode)
        ? { tools: [{ type: 'builtin_function', function: { name: '$web_search' } }] }
        : {},
    refusalReasons: ['content_filter'],
    echoToolCalls: true,
  }),
};
