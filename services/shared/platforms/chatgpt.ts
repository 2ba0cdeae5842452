/** ChatGPT: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'chatgpt',
  label: 'ChatGPT',
  vendor: 'OpenAI',
  aliases: ['openai', 'gpt'],
  // The consumer site adds its own search and picks its sources itself.
  channels: { api: MODES, web: MODES },
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
  web: {
    url: 'https://chatgpt.com',
    quota: null,
    gapMs: 20_000,
    timeoutMs: 180_000,
    needsAccounts: true,
  },
};
