/** Wenxin (ERNIE): the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'wenxin',
  label: 'Wenxin (ERNIE)',
  vendor: 'Baidu (Qianfan)',
  aliases: ['ernie', 'qianfan', 'yiyan'],
  // The consumer site Yiyan (yiyan.baidu.com) adds Baidu's own search (Baijiahao among the sources).
  channels: { api: MODES, web: MODES },
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
  web: {
    url: 'https://yiyan.baidu.com',
    quota: null,
    gapMs: 20_000,
    timeoutMs: 180_000,
    needsAccounts: true,
  },
};
