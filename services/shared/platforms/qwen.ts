/** Qwen: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'qwen',
  label: 'Qwen',
  vendor: 'Alibaba (DashScope)',
  aliases: ['tongyi', 'dashscope'],
  channels: { api: MODES },
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
};
