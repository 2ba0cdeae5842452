/** ChatGPT: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'chatgpt',
  label: 'ChatGPT',
  vendor: 'OpenAI',
  aliases: ['openai', 'gpt'],
  channels: { api: MODES },
  defaultChannel: 'api',
  // Neither its API nor its site serves mainland China.
  serves: 'outside-mainland',
  api: {
    baseUrl: 'https://api.openai.com/v1',
    models: {
      standard: 'gpt-4.1',
      reasoning: 'o4-mini',
      search: 'gpt-4.1',
      reasoning_search: 'o4-mini',
    },
    timeoutMs: 180_000,
  },
};
