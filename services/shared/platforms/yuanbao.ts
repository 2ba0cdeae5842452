/** Yuanbao: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'yuanbao',
  label: 'Yuanbao',
  vendor: 'Tencent (Hunyuan)',
  aliases: ['hunyuan'],
  // The consumer site adds its own search (WeChat articles among the sources).
  channels: { api: MODES, web: MODES },
  defaultChannel: 'api',
  api: {
    baseUrl: 'https://api.hunyuan.cloud.tencent.com/v1',
    models: {
      standard: 'hunyuan-turbos-latest',
      reasoning: 'hunyuan-t1-latest',
      search: 'hunyuan-turbos-latest',
      reasoning_search: 'hunyuan-t1-latest',
    },
    timeoutMs: 180_000,
  },
  web: {
    url: 'https://yuanbao.tencent.com',
    quota: null,
    gapMs: 20_000,
    timeoutMs: 180_000,
    needsAccounts: true,
  },
};
