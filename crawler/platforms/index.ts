/** The platform drivers this build has, registered by canonical platform name. */
import type { PlatformDriver } from './types.js';
import { sandboxDriver } from './sandbox/index.js';

const DRIVERS: Readonly<Record<string, PlatformDriver>> = {
  // The simulated assistants share one driver; they differ by channel and settings.
  sandbox: sandboxDriver,
  'sandbox-web': sandboxDriver,
  'sandbox-cn': sandboxDriver,
};

export function driverFor(platform: string): PlatformDriver | undefined {
  return DRIVERS[platform];
}

export function availablePlatforms(): string[] {
  return Object.keys(DRIVERS);
}
