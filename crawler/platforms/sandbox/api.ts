/**
 * The sandbox's API driver: a flavour of the shared OpenAI-style chat driver,
 * the code nine vendors run, so demos, tests and benchmarks on the sandbox
 * exercise it. The stand-in (sandbox/ at the top of the repository) picks the
 * mode from the model name and the switches DeepSeek, Doubao and Zhipu
 * (`thinking.type`) and Qianfan (`web_search.enable`) use; it sends sources
 * as a top-level `search_results[]` cited with `[n]`, and ends a refusal with
 * `finish_reason: "content_filter"`.
 */
import type { Mode } from '../../../services/shared/platforms.js';
import type { ApiContext, ApiDriver, Job, PlatformSettings } from '../types.js';
import { hasReasoning, hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';

const chat = chatDriver({
  platform: 'sandbox',
  path: '/v1/chat/completions',
  switches: (mode) => ({
    thinking: { type: hasReasoning(mode) ? 'enabled' : 'disabled' },
    web_search: { enable: hasSearch(mode) },
  }),
  refusalReasons: ['content_filter'],
});

/** The stand-in's model names, as a vendor's `apiDefaults.models` list them. */
export const SANDBOX_MODELS: Readonly<Record<Mode, string>> = {
  standard: 'sandbox-standard',
  reasoning: 'sandbox-reasoning',
  search: 'sandbox-search',
  reasoning_search: 'sandbox-reasoning-search',
};

/**
 * The settings with what a vendor's `apiDefaults` would give: a model per
 * mode and a key (the stand-in takes any). The sandbox has no `apiDefaults`,
 * since those mark the platforms that run only with a configured key.
 */
export function withSandboxDefaults(settings: PlatformSettings): PlatformSettings {
  return {
    ...settings,
    apiKey: settings.apiKey || 'sandbox',
    models: { ...SANDBOX_MODELS, ...settings.models },
  };
}

export const sandboxApi: ApiDriver = {
  ask: (job: Job, ctx: ApiContext) =>
    chat.ask(job, { ...ctx, settings: withSandboxDefaults(ctx.settings) }),
};
