/**
 * Operator settings of each platform as a crawler node uses them: the
 * sandbox's local stand-in, or a vendor's configuration over the driver's
 * defaults. A vendor platform without an API key has no settings, so this
 * node neither advertises nor accepts it.
 */
import type { VendorPlatformConfig } from '../services/shared/config.js';
import { driverFor } from './platforms/index.js';
import type { PlatformSettings } from './platforms/types.js';

export interface SandboxSettings {
  url: string;
  timeoutMs: number;
}

const SANDBOXES = ['sandbox', 'sandbox-web', 'sandbox-cn'];

/** The vendor platforms `vendors` gives credentials for (and this build has a driver for). */
export function credentialedPlatforms(
  vendors: Readonly<Record<string, VendorPlatformConfig>>,
): string[] {
  return Object.keys(vendors).filter(
    (name) => vendors[name]!.apiKeys.length > 0 && driverFor(name)?.apiDefaults !== undefined,
  );
}

/**
 * A look-up of settings by platform. Several API keys of one platform take
 * turns, one per sub task, to spread the vendor's per-key rate limits.
 */
export function settingsResolver(
  sandbox: SandboxSettings,
  vendors: Readonly<Record<string, VendorPlatformConfig>> = {},
): (platform: string) => PlatformSettings | undefined {
  const turns = new Map<string, number>();
  return (platform) => {
    if (SANDBOXES.includes(platform)) {
      return {
        apiBaseUrl: sandbox.url,
        webUrl: `${sandbox.url}/`,
        apiKey: 'sandbox',
        timeoutMs: sandbox.timeoutMs,
      };
    }
    const vendor = vendors[platform];
    const defaults = driverFor(platform)?.apiDefaults;
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
