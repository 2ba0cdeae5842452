/**
 * DeepSeek: OpenAI-style chat. Reasoning is `deepseek-reasoner` (or thinking
 * on V4 models) and streams `reasoning_content`; the API has no web search,
 * so the catalogue offers standard and reasoning only.
 */
import type { PlatformDriver } from '../types.js';
import { hasReasoning } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

export const deepseekDriver: PlatformDriver = {
  name: 'deepseek',
  apiDefaults: {
    baseUrl: 'https://api.deepseek.com',
    models: { standard: 'deepseek-chat', reasoning: 'deepseek-reasoner' },
    timeoutMs: 180_000,
  },
  api: chatDriver({
    platform: 'deepseek',
    path: '/chat/completions',
    // The classic names pick the behaviour; V4 names need the explicit switch. Both accept it.
    switches: (mode) => ({ thinking: { type: hasReasoning(mode) ? 'enabled' : 'disabled' } }),
  }),
};
