/** Shared by the driver tests: settings for a stand-in and a way to catch PlatformErrors. */
import { driverFor } from '../../crawler/platforms/index.js';
import { PlatformError, type PlatformSettings } from '../../crawler/platforms/types.js';
import { findPlatform, type Mode } from '../../services/shared/platforms.js';
import type { PlatformStandin } from '../standins/index.js';

export function settingsFor(s: PlatformStandin, timeoutMs = 10_000): PlatformSettings {
  const defaults = findPlatform(s.platform)!.api!;
  return {
    apiBaseUrl: s.baseUrl,
    webUrl: '',
    apiKey: s.apiKey,
    models: { ...defaults.models },
    timeoutMs,
  };
}

export function ask(s: PlatformStandin, prompt: string, mode: Mode, timeoutMs?: number) {
  return driverFor(s.platform)!.api!.ask(
    { prompt, mode, signal: new AbortController().signal },
    { settings: settingsFor(s, timeoutMs), fetch },
  );
}

export async function failure(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof PlatformError) return err;
    throw err;
  }
  throw new Error('expected a PlatformError, got an answer');
}
