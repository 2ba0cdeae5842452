/**
 * The simulated platforms: one local stand-in (sandbox/ at the top of the
 * repository) behind three names, so a batch can try several "platforms"
 * offline. They need no credentials; their addresses and deadline come from
 * SANDBOX_URL and SANDBOX_TIMEOUT_MS.
 */
import { MODES, type PlatformDefinition } from './definition.js';

/** The stand-in paces nothing and limits nothing: tests and demos run at full speed. */
const LOCAL_SITE = {
  url: null,
  quota: null,
  gapMs: 0,
  timeoutMs: 60_000,
  needsAccounts: false,
} as const;

export const definitions: readonly PlatformDefinition[] = [
  {
    name: 'sandbox',
    label: 'Sandbox (simulated, API channel)',
    vendor: 'built-in',
    aliases: ['demo'],
    channels: { api: MODES, web: MODES },
    defaultChannel: 'api',
    simulated: true,
    web: LOCAL_SITE,
  },
  {
    name: 'sandbox-web',
    label: 'Sandbox chat site (simulated, web channel)',
    vendor: 'built-in',
    aliases: ['demo-web'],
    channels: { web: MODES },
    defaultChannel: 'web',
    simulated: true,
    web: LOCAL_SITE,
  },
  {
    name: 'sandbox-cn',
    label: 'Sandbox 中文助手 (simulated, API channel)',
    vendor: 'built-in',
    aliases: ['demo-cn'],
    channels: { api: MODES },
    defaultChannel: 'api',
    simulated: true,
  },
];
