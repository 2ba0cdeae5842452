/** Operator settings of each platform as a crawler node uses them. */
import type { PlatformSettings } from './platforms/types.js';

export interface SandboxSettings {
  url: string;
  timeoutMs: number;
}

export function platformSettings(
  platform: string,
  sandbox: SandboxSettings,
): PlatformSettings | undefined {
  if (platform === 'sandbox' || platform === 'sandbox-web' || platform === 'sandbox-cn') {
    return {
      apiBaseUrl: sandbox.url,
      webUrl: `${sandbox.url}/`,
      apiKey: 'sandbox',
      timeoutMs: sandbox.timeoutMs,
    };
  }
  return undefined;
}
