/** Claude: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'claude',
  label: 'Claude',
  vendor: 'Anthropic',
  aliases: ['anthropic'],
  channels: { api: MODES },
  defaultChannel: 'api',
  api: {
    baseUrl: 'https://api.anthropic.com/v1',
    models: {
      standard: 'claude-sonnet-4-5',
      reasoning: 'claude-sonnet-4-5',
      search: 'claude-sonnet-4-5',
      reasoning_search: 'claude-sonnet-4-5',
    },
    timeoutMs: 180_000,
  },
};
