/**
 * Operator settings of each (platform, channel) as a crawler node uses them:
 * the sandbox's local stand-in, or the operator's configuration over the
 * platform definition's defaults. A vendor's API channel without an API key
 * has no settings, so this node neither advertises nor accepts it; a web
 * channel needs no key (its accounts hold the sessions).
 */
import type { VendorPlatformConfig } from '../services/shared/config.js';
import { findPlatform, type Channel } from '../services/shared/platforms.js';
import type { PlatformSettings } from './platforms/types.js';

export interface SandboxSettings {
  url: string;
  timeoutMs: number;
}

/** Settings of a (platform, channel) pair; undefined: this node cannot run it. */
export type SettingsFor = (platform: string, channel: Channel) => PlatformSettings | undefined;

/** The vendor platforms `vendors` gives API credentials for (and whose definition has an API). */
export function credentialedPlatforms(
  vendors: Readonly<Record<string, VendorPlatformConfig>>,
): string[] {
  return Object.keys(vendors).filter(
    (name) => vendors[name]!.apiKeys.length > 0 && findPlatform(name)?.api !== undefined,
  );
}

/**
 * A look-up of settings by (platform, channel). Several API keys of one
 * platform take turns, one per sub task, to spread the vendor's per-key rate
 * limits.
 */
export function settingsResolver(
  sandbox: SandboxSettings,
  vendors: Readonly<Record<string, VendorPlatformConfig>> = {},
): SettingsFor {
  const turns = new Map<string, number>();
  return (platform, channel) => {
    const def = findPlatform(platform);
    if (!def || def.name !== platform || def.channels[channel] === undefined) return undefined;
    if (def.simulated) {
      return {
        apiBaseUrl: sandbox.url,
        webUrl: `${sandbox.url}/`,
        apiKey: 'sandbox',
        timeoutMs: sandbox.timeoutMs,
      };
    }
    const vendor = vendors[platform];
    if (channel === 'web') {
      const url = vendor?.web.url ?? def.web?.url;
      if (!url || !def.web) return undefined;
      return {
        apiBaseUrl: '',
        webUrl: url,
        models: { ...vendor?.web.models },
        timeoutMs: vendor?.web.timeoutMs ?? def.web.timeoutMs,
      };
    }
    const defaults = def.api;
    if (!vendor || !defaults || vendor.apiKeys.length === 0) return undefined;
    const turn = turns.get(platform) ?? 0;
    turns.set(platform, turn + 1);
    return {
      apiBaseUrl: vendor.baseUrl ?? defaults.baseUrl,
      webUrl: '',
      apiKey: vendor.apiKeys[turn % vendor.apiKeys.length],
      models: { ...defaults.models, ...vendor.models },
      timeoutMs: vendor.timeoutMs ?? defaults.timeoutMs,
    };
  };
}
