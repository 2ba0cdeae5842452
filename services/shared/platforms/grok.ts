/** Grok: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'grok',
  label: 'Grok',
  vendor: 'xAI',
  aliases: ['xai'],
  channels: { api: MODES },
  defaultChannel: 'api',
  api: {
    baseUrl: 'https://api.x.ai/v1',
    models: {
      standard: 'grok-4-fast-non-reasoning',
      reasoning: 'grok-3-mini',
      search: 'grok-4-fast-non-reasoning',
      reasoning_search: 'grok-4-fast-reasoning',
    },
    timeoutMs: 180_000,
  },
};
