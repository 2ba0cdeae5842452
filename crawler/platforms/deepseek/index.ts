/**
 * DeepSeek: OpenAI-style chat. Reasoning is `deepseek-reasoner` (or thinking
 * on V4 models) and streams `reasoning_content`; the API has no web search,
 * so its API channel offers standard and reasoning only (the site has search).
 */
import type { ApiDriver } from '../types.js';
import { hasReasoning } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

export const deepseekApi: ApiDriver = chatDriver({
  platform: 'deepseek',
  path: '/chat/completions',
  // The classic names pick the behaviour; V4 names need the explicit switch. Both accept it.
  switches: (mode) => ({ thinking: { type: hasReasoning(mode) ? 'enabled' : 'disabled' } }),
});
