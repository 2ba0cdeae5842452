/** Doubao: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'doubao',
  label: 'Doubao',
  vendor: 'ByteDance (Volcengine Ark)',
  aliases: ['ark', 'volcengine'],
  channels: { api: MODES, web: MODES },
  defaultChannel: 'api',
  api: {
    baseUrl: 'https://ark.cn-beijing.volces.com/api/v3',
    models: {
      standard: 'doubao-seed-1-6-250615',
      reasoning: 'doubao-seed-1-6-250615',
      search: 'doubao-seed-1-6-250615',
      reasoning_search: 'doubao-seed-1-6-250615',
    },
    timeoutMs: 180_000,
  },
  web: {
    url: 'https://www.doubao.com',
    quota: null,
    gapMs: 20_000,
    timeoutMs: 180_000,
    needsAccounts: true,
  },
};
