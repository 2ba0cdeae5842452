/** Gemini: the platform as this build runs it (see services/shared/platforms/definition.ts). */
import { MODES, type PlatformDefinition } from './definition.js';

export const definition: PlatformDefinition = {
  name: 'gemini',
  label: 'Gemini',
  vendor: 'Google',
  aliases: ['google', 'bard'],
  // The consumer app (gemini.google.com) adds its own grounding, thinking models and sources.
  channels: { api: MODES, web: MODES },
  defaultChannel: 'api',
  // Neither its API nor its site serves mainland China.
  serves: 'outside-mainland',
  api: {
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    models: {
      standard: 'gemini-2.5-flash',
      reasoning: 'gemini-2.5-flash',
      search: 'gemini-2.5-flash',
      reasoning_search: 'gemini-2.5-flash',
    },
    timeoutMs: 180_000,
  },
  web: {
    url: 'https://gemini.google.com',
    quota: null,
    gapMs: 20_000,
    timeoutMs: 180_000,
    needsAccounts: true,
  },
};
