/** Operator settings of each platform as a crawler node uses them. */
import type { PlatformSettings } from './platforms/types.js';

const SANDBOX_TIMEOUT_MS = 60_000;

export function platformSettings(
  platform: string,
  sandboxUrl: string,
): PlatformSettings | undefined {
  if (platform === 'sandbox' || platform === 'sandbox-web' || platform === 'sandbox-cn') {
    return {
      apiBaseUrl: sandboxUrl,
      webUrl: `${sandboxUrl}/`,
      apiKey: 'sandbox',
      timeoutMs: SANDBOX_TIMEOUT_MS,
    };
  }
  return undefined;
}
