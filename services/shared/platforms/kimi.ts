/** Kimi: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'kimi',
  label: 'Kimi',
  vendor: 'Moonshot AI',
  aliases: ['moonshot'],
  channels: { api: MODES, web: MODES },
  defaultChannel: 'api',
  api: {
    baseUrl: 'https://api.moonshot.cn/v1',
    models: {
      standard: 'kimi-k2-turbo-preview',
      reasoning: 'kimi-k2-thinking',
      search: 'kimi-k2-turbo-preview',
      reasoning_search: 'kimi-k2-thinking',
    },
    timeoutMs: 180_000,
  },
  web: {
    url: 'https://www.kimi.com',
    // 30 long-text rounds per 3 h per account (kimi-free-api README; ../shared/web-channel.md).
    quota: { prompts: 30, perMs: 3 * 3_600_000 },
    gapMs: 20_000,
    timeoutMs: 180_000,
    needsAccounts: true,
  },
};
