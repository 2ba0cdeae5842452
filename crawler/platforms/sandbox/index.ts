/**
 * The built-in `sandbox` platform: a deterministic, local stand-in with both
 * channels. Start its server with `startSandboxServer()` and point the
 * platform's settings at it (`apiBaseUrl` = `webUrl` = the server's `url`).
 */
import type { PlatformDriver } from '../types.js';
import { sandboxApi } from './api.js';
import { sandboxWeb } from './web.js';

export const sandboxDriver: PlatformDriver = { name: 'sandbox', api: sandboxApi, web: sandboxWeb };

export { sandboxApi, sandboxWeb };
export { sandboxAnswer, brandsFor, SANDBOX_BRANDS, REFUSAL_TEXT } from './answers.js';
export {
  startSandboxServer,
  type SandboxServer,
  type SandboxServerOptions,
  type SandboxRequestRecord,
  type SandboxStats,
} from './server.js';
