/** Wenxin (ERNIE): the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'wenxin',
  label: 'Wenxin (ERNIE)',
  vendor: 'Baidu (Qianfan)',
  aliases: ['ernie', 'qianfan', 'yiyan'],
  channels: { api: MODES },
  defaultChannel: 'api',
  api: {
    baseUrl: 'https://qianfan.baidubce.com/v2',
    models: {
      standard: 'ernie-4.5-turbo-32k',
      reasoning: 'ernie-x1-turbo-32k',
      search: 'ernie-4.5-turbo-32k',
      reasoning_search: 'ernie-x1-turbo-32k',
    },
    timeoutMs: 180_000,
  },
};
