/** DeepSeek: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'deepseek',
  label: 'DeepSeek',
  vendor: 'DeepSeek',
  aliases: [],
  // The API has no web search; the consumer site does.
  channels: { api: ['standard', 'reasoning'], web: MODES },
  defaultChannel: 'api',
  api: {
    baseUrl: 'https://api.deepseek.com',
    models: { standard: 'deepseek-chat', reasoning: 'deepseek-reasoner' },
    timeoutMs: 180_000,
  },
  web: {
    url: 'https://chat.deepseek.com',
    quota: null,
    gapMs: 20_000,
    timeoutMs: 180_000,
    needsAccounts: true,
  },
};
