/** Zhipu GLM: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'zhipu',
  label: 'Zhipu GLM',
  vendor: 'Zhipu AI',
  aliases: ['chatglm', 'glm'],
  // The consumer site, ChatGLM (chatglm.cn), adds its own search and deep thinking.
  channels: { api: MODES, web: MODES },
  defaultChannel: 'api',
  api: {
    baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
    models: {
      standard: 'glm-4.6',
      reasoning: 'glm-4.6',
      search: 'glm-4.6',
      reasoning_search: 'glm-4.6',
    },
    timeoutMs: 180_000,
  },
  web: {
    url: 'https://chatglm.cn',
    quota: null,
    gapMs: 20_000,
    timeoutMs: 180_000,
    needsAccounts: true,
  },
};
