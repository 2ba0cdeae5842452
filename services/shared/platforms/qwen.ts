/** Qwen: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'qwen',
  label: 'Qwen',
  vendor: 'Alibaba (DashScope)',
  aliases: ['tongyi', 'dashscope'],
  // The consumer site (chat.qwen.ai; the domestic 千问 site) adds its own search.
  channels: { api: MODES, web: MODES },
  defaultChannel: 'api',
  api: {
    baseUrl: 'https://dashscope.aliyuncs.com/api/v1',
    models: {
      standard: 'qwen-plus',
      reasoning: 'qwen-plus',
      search: 'qwen-plus',
      reasoning_search: 'qwen-plus',
    },
    timeoutMs: 180_000,
  },
  web: {
    url: 'https://chat.qwen.ai',
    quota: null,
    gapMs: 20_000,
    timeoutMs: 180_000,
    needsAccounts: true,
  },
};
