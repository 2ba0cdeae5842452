/**
 * `platform[:mode][:channel]` on the command line to the API's platform
 * configuration (pure): `chatgpt:search`, `doubao:reasoning:web`. A channel
 * may stand in the mode's place (`sandbox:web`), since no mode is named like
 * a channel; the mode is then `standard`. Names the CLI does not know are
 * passed on as they are, so the API reports them with every other rule.
 */
import { CHANNELS, MODES } from '../../services/shared/platforms/definition.js';
import { CliError, EXIT } from './exit-codes.js';

export interface PlatformConfig {
  platform: string;
  mode: string;
  channel?: string;
  screenshot?: 0 | 1 | 2;
}

export const PLATFORM_SPEC_HELP = `platform[:mode][:channel], e.g. chatgpt:search, doubao:reasoning:web (modes: ${MODES.join(', ')}; channels: ${CHANNELS.join(', ')}; mode defaults to standard, channel to the operator's choice)`;

const isChannel = (v: string) => (CHANNELS as readonly string[]).includes(v.toLowerCase());

export function parsePlatformSpec(spec: string): PlatformConfig {
  const parts = spec.split(':').map((p) => p.trim());
  const [platform, second, third, ...rest] = parts;
  if (!platform || rest.length > 0 || parts.some((p) => p === '')) {
    throw new CliError(`bad platform "${spec}": expected ${PLATFORM_SPEC_HELP}`, EXIT.usage);
  }
  if (second !== undefined && third === undefined && isChannel(second)) {
    return { platform, mode: 'standard', channel: second.toLowerCase() };
  }
  const config: PlatformConfig = { platform, mode: second?.toLowerCase() ?? 'standard' };
  if (third !== undefined) config.channel = third.toLowerCase();
  return config;
}

/** Every spec, from repeated options or comma-separated lists (`-p a,b -p c`). */
export function parsePlatformSpecs(values: readonly string[]): PlatformConfig[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '')
    .map(parsePlatformSpec);
}
