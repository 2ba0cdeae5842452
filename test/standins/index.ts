/**
 * The twelve vendor stand-ins, one local server per platform at the API root
 * its driver expects (the vendor's base URL with our host), and the
 * environment that points a crawler node at them.
 */
import { anthropicRoute } from './anthropic.js';
import { dashscopeRoute } from './dashscope.js';
import { geminiRoute } from './gemini.js';
import { chatRoute } from './openai-chat.js';
import { responsesRoute } from './responses.js';
import { startRoutes, type Route, type Standin } from './server.js';

interface Layout {
  /** The API root under the stand-in's origin (the vendor's base URL path). */
  root: string;
  routes(key: string): Route[];
}

const LAYOUT: Record<string, Layout> = {
  chatgpt: { root: '/v1', routes: (k) => [chatRoute('chatgpt', k), responsesRoute('chatgpt', k)] },
  claude: { root: '/v1', routes: (k) => [anthropicRoute(k)] },
  gemini: { root: '/v1beta', routes: (k) => [geminiRoute(k)] },
  perplexity: { root: '', routes: (k) => [chatRoute('perplexity', k)] },
  deepseek: { root: '', routes: (k) => [chatRoute('deepseek', k)] },
  kimi: { root: '/v1', routes: (k) => [chatRoute('kimi', k)] },
  qwen: { root: '/api/v1', routes: (k) => [dashscopeRoute(k)] },
  doubao: { root: '/api/v3', routes: (k) => [chatRoute('doubao', k), responsesRoute('doubao', k)] },
  zhipu: { root: '/api/paas/v4', routes: (k) => [chatRoute('zhipu', k)] },
  grok: { root: '/v1', routes: (k) => [chatRoute('grok', k), responsesRoute('grok', k)] },
  yuanbao: { root: '/v1', routes: (k) => [chatRoute('yuanbao', k)] },
  wenxin: { root: '/v2', routes: (k) => [chatRoute('wenxin', k)] },
};

export const STANDIN_PLATFORMS = Object.keys(LAYOUT);

export interface PlatformStandin {
  platform: string;
  baseUrl: string;
  apiKey: string;
  server: Standin;
}

export async function startPlatformStandin(platform: string): Promise<PlatformStandin> {
  const layout = LAYOUT[platform]!;
  const apiKey = `test-key-${platform}`;
  const server = await startRoutes(layout.routes(apiKey));
  return { platform, baseUrl: server.url + layout.root, apiKey, server };
}

export async function startPlatformStandins(
  platforms: readonly string[] = STANDIN_PLATFORMS,
): Promise<Map<string, PlatformStandin>> {
  const all = await Promise.all(platforms.map(startPlatformStandin));
  return new Map(all.map((s) => [s.platform, s]));
}

/** `<PLATFORM>_API_KEY` and `<PLATFORM>_BASE_URL` for each stand-in. */
export function standinEnv(standins: Map<string, PlatformStandin>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const s of standins.values()) {
    env[`${s.platform.toUpperCase()}_API_KEY`] = s.apiKey;
    env[`${s.platform.toUpperCase()}_BASE_URL`] = s.baseUrl;
  }
  return env;
}
