/** The platform drivers this build has, registered by canonical platform name. */
import type { PlatformDriver } from './types.js';
import { sandboxDriver } from './sandbox/index.js';
import { chatgptDriver } from './chatgpt/index.js';
import { claudeDriver } from './claude/index.js';
import { geminiDriver } from './gemini/index.js';
import { perplexityDriver } from './perplexity/index.js';
import { deepseekDriver } from './deepseek/index.js';
import { kimiDriver } from './kimi/index.js';
import { qwenDriver } from './qwen/index.js';
import { doubaoDriver } from './doubao/index.js';
import { zhipuDriver } from './zhipu/index.js';
import { grokDriver } from './grok/index.js';
import { yuanbaoDriver } from './yuanbao/index.js';
import { wenxinDriver } from './wenxin/index.js';

const DRIVERS: Readonly<Record<string, PlatformDriver>> = {
  // The simulated assistants share one driver; they differ by channel and settings.
  sandbox: sandboxDriver,
  'sandbox-web': sandboxDriver,
  'sandbox-cn': sandboxDriver,
  chatgpt: chatgptDriver,
  claude: claudeDriver,
  gemini: geminiDriver,
  perplexity: perplexityDriver,
  deepseek: deepseekDriver,
  kimi: kimiDriver,
  qwen: qwenDriver,
  doubao: doubaoDriver,
  zhipu: zhipuDriver,
  grok: grokDriver,
  yuanbao: yuanbaoDriver,
  wenxin: wenxinDriver,
};

export function driverFor(platform: string): PlatformDriver | undefined {
  return DRIVERS[platform];
}

export function availablePlatforms(): string[] {
  return Object.keys(DRIVERS);
}

/** The drivers of real vendors (they run only with an API key configured). */
export function vendorPlatforms(): string[] {
  return Object.keys(DRIVERS).filter((name) => DRIVERS[name]!.apiDefaults !== undefined);
}
