/**
 * The built-in `sandbox` platform: a deterministic, local stand-in with both
 * channels. Its server is a fixture in `sandbox/` at the top of the
 * repository; point the platform's settings at it (`apiBaseUrl` = `webUrl` =
 * the server's `url`).
 */
import type { PlatformDriver } from '../types.js';
import { sandboxApi } from './api.js';
import { sandboxWeb } from './web.js';

export const sandboxDriver: PlatformDriver = { name: 'sandbox', api: sandboxApi, web: sandboxWeb };
