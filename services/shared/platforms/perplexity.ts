/** Perplexity: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'perplexity',
  label: 'Perplexity',
  vendor: 'Perplexity AI',
  aliases: ['pplx', 'sonar'],
  // The consumer site: search is the product; standard turns the Web source off (its web driver).
  channels: { api: MODES, web: MODES },
  defaultChannel: 'api',
  // Neither its API nor its site serves mainland China.
  serves: 'outside-mainland',
  api: {
    baseUrl: 'https://api.perplexity.ai',
    models: {
      standard: 'sonar',
      reasoning: 'sonar-reasoning-pro',
      search: 'sonar-pro',
      reasoning_search: 'sonar-reasoning-pro',
    },
    timeoutMs: 180_000,
  },
  web: {
    url: 'https://www.perplexity.ai',
    quota: null,
    gapMs: 20_000,
    timeoutMs: 180_000,
    needsAccounts: true,
  },
};
