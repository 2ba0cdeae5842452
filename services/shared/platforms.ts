/**
 * The platform catalogue: every platform's definition
 * (`services/shared/platforms/<name>.ts`, pure data) in catalogue order,
 * and look-ups over them. The api validates submissions against it and
 * `GET /platforms` lists it; crawler nodes derive their drivers, settings and
 * adverts from the same definitions.
 */
import {
  CHANNELS,
  MODES,
  type Channel,
  type Mode,
  type PlatformDefinition,
} from './platforms/definition.js';
import { definition as chatgpt } from './platforms/chatgpt.js';
import { definition as claude } from './platforms/claude.js';
import { definition as gemini } from './platforms/gemini.js';
import { definition as perplexity } from './platforms/perplexity.js';
import { definition as deepseek } from './platforms/deepseek.js';
import { definition as doubao } from './platforms/doubao.js';
import { definition as kimi } from './platforms/kimi.js';
import { definition as qwen } from './platforms/qwen.js';
import { definition as yuanbao } from './platforms/yuanbao.js';
import { definition as wenxin } from './platforms/wenxin.js';
import { definition as zhipu } from './platforms/zhipu.js';
import { definition as grok } from './platforms/grok.js';
import { definitions as sandboxes } from './platforms/sandbox.js';

export { CHANNELS, MODES, type Channel, type Mode };
export type PlatformInfo = PlatformDefinition;

export const PLATFORMS: readonly PlatformInfo[] = [
  chatgpt,
  claude,
  gemini,
  perplexity,
  deepseek,
  doubao,
  kimi,
  qwen,
  yuanbao,
  wenxin,
  zhipu,
  grok,
  ...sandboxes,
];

const byName = new Map<string, PlatformInfo>();
for (const p of PLATFORMS) {
  byName.set(p.name, p);
  for (const alias of p.aliases) byName.set(alias, p);
}

/** Resolves a submitted name (any case, canonical or alias) to its catalogue entry. */
export function findPlatform(name: string): PlatformInfo | undefined {
  return byName.get(name.trim().toLowerCase());
}

/**
 * Whether the platform's web channel runs as accounts: a real site's web sub
 * task needs a usable account; unknown and API-only platforms have none.
 */
export function needsAccounts(name: string): boolean {
  return findPlatform(name)?.web?.needsAccounts === true;
}

/** The channel a platform runs on: the operator's choice if it has that channel, else its default. */
export function activeChannel(
  platform: PlatformInfo,
  choices: Readonly<Record<string, string>> = {},
): Channel {
  const chosen = choices[platform.name];
  return isChannel(chosen) && platform.channels[chosen] !== undefined
    ? chosen
    : platform.defaultChannel;
}

/** The channel a request runs on: the one it names, else the platform's active channel. */
export function effectiveChannel(
  platform: PlatformInfo,
  requested: Channel | null | undefined,
  choices: Readonly<Record<string, string>> = {},
): Channel {
  return requested ?? activeChannel(platform, choices);
}

/** The channels the platform has, in catalogue order. */
export function channelsOf(platform: PlatformInfo): Channel[] {
  return CHANNELS.filter((c) => platform.channels[c] !== undefined);
}

/** Modes the platform supports over the given channel (by default its default one). */
export function supportedModes(
  platform: PlatformInfo,
  channel: Channel = platform.defaultChannel,
): Mode[] {
  const modes = platform.channels[channel] ?? [];
  return MODES.filter((m) => modes.includes(m));
}

export function isMode(value: unknown): value is Mode {
  return typeof value === 'string' && (MODES as readonly string[]).includes(value);
}

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}
