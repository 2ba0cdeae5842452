/**
 * The drivers this build has, by platform and channel. A platform's channels
 * and defaults come from its definition (services/shared/platforms.ts lists
 * them); a driver is found only for a channel the definition lists.
 */
import type { ApiDriver, PlatformDriver, WebDriver } from './types.js';
import { PLATFORMS, type Channel } from '../../services/shared/platforms.js';
import { sandboxApi } from './sandbox/api.js';
import { sandboxWeb } from './sandbox/web.js';
import { doubaoWeb } from './doubao/web/index.js';
import { deepseekWeb } from './deepseek/web/index.js';
import { kimiWeb } from './kimi/web/index.js';
import { yuanbaoWeb } from './yuanbao/web/index.js';
import { qwenWeb } from './qwen/web/index.js';
import { zhipuWeb } from './zhipu/web/index.js';
import { wenxinWeb } from './wenxin/web/index.js';
import { perplexityWeb } from './perplexity/web/index.js';
import { chatgptWeb } from './chatgpt/web/index.js';
import { geminiWeb } from './gemini/web/index.js';
import { chatgptApi } from './chatgpt/index.js';
import { claudeApi } from './claude/index.js';
import { geminiApi } from './gemini/index.js';
import { perplexityApi } from './perplexity/index.js';
import { deepseekApi } from './deepseek/index.js';
import { kimiApi } from './kimi/index.js';
import { qwenApi } from './qwen/index.js';
import { doubaoApi } from './doubao/index.js';
import { zhipuApi } from './zhipu/index.js';
import { grokApi } from './grok/index.js';
import { yuanbaoApi } from './yuanbao/index.js';
import { wenxinApi } from './wenxin/index.js';

const API_DRIVERS: Readonly<Record<string, ApiDriver>> = {
  // The simulated assistants share one stand-in; they differ by channel and name.
  sandbox: sandboxApi,
  'sandbox-cn': sandboxApi,
  chatgpt: chatgptApi,
  claude: claudeApi,
  gemini: geminiApi,
  perplexity: perplexityApi,
  deepseek: deepseekApi,
  kimi: kimiApi,
  qwen: qwenApi,
  doubao: doubaoApi,
  zhipu: zhipuApi,
  grok: grokApi,
  yuanbao: yuanbaoApi,
  wenxin: wenxinApi,
};

/**
 * The consumer-site drivers. The real sites' drivers are registered here too
 * (`crawler/platforms/<p>/web/index.ts`: doubao: doubaoWeb, deepseek:
 * deepseekWeb, kimi: kimiWeb, yuanbao: yuanbaoWeb, wenxin: wenxinWeb); their definitions already
 * list the web channel.
 */
const WEB_DRIVERS: Readonly<Record<string, WebDriver>> = {
  sandbox: sandboxWeb,
  'sandbox-web': sandboxWeb,
  doubao: doubaoWeb,
  deepseek: deepseekWeb,
  kimi: kimiWeb,
  yuanbao: yuanbaoWeb,
  qwen: qwenWeb,
  zhipu: zhipuWeb,
  wenxin: wenxinWeb,
  perplexity: perplexityWeb,
  chatgpt: chatgptWeb,
  gemini: geminiWeb,
};

const DRIVERS = new Map<string, PlatformDriver>();
for (const def of PLATFORMS) {
  const api = def.channels.api ? API_DRIVERS[def.name] : undefined;
  const web = def.channels.web ? WEB_DRIVERS[def.name] : undefined;
  if (api || web)
    DRIVERS.set(def.name, { name: def.name, ...(api && { api }), ...(web && { web }) });
}
for (const [channel, registered] of [
  ['api', API_DRIVERS],
  ['web', WEB_DRIVERS],
] as const) {
  for (const name of Object.keys(registered)) {
    if (!DRIVERS.get(name)?.[channel])
      throw new Error(
        `a ${channel} driver is registered for ${name}, whose definition has no ${channel} channel`,
      );
  }
}

/**
 * The platform's drivers (canonical name); with a channel, only when this
 * build runs the platform over it. Look up the channel's driver on the
 * answer: `driverFor(p, 'web')?.web`.
 */
export function driverFor(platform: string, channel?: Channel): PlatformDriver | undefined {
  const driver = DRIVERS.get(platform);
  return channel === undefined || driver?.[channel] !== undefined ? driver : undefined;
}
