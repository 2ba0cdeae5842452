/**
 * Moonshot Kimi: OpenAI-style chat. Thinking models stream
 * `reasoning_content`. Search is the `$web_search` built-in tool: the model
 * answers first with a tool call, which the client echoes back unchanged, and
 * only then answers. The sources are in that call: its arguments' `search_results`
 * (`title`, `url`, `content`) become the referenceList. Kimi marks no citations
 * (no annotations, no marker style of its own), so citationList holds only the
 * references an `[n]` in the text names, and is empty when the text has none.
 */
import type { ApiDriver } from '../types.js';
import { hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

export const kimiApi: ApiDriver = chatDriver({
  platform: 'kimi',
  path: '/chat/completions',
  switches: (mode) =>
    hasSearch(mode)
      ? { tools: [{ type: 'builtin_function', function: { name: '$web_search' } }] }
      : {},
  refusalReasons: ['content_filter'],
  echoToolCalls: true,
});
