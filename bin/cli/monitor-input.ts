/**
 * The body of `POST …/monitor/monitors` from `aimon monitor create`'s options
 * (pure). The API checks every rule and reports them all; here only what the
 * options themselves cannot mean is refused.
 */
import { CliError, EXIT } from './exit-codes.js';
import { parsePlatformSpecs } from './platform-spec.js';

export interface MonitorOptions {
  name?: string;
  platform: string[];
  keywords?: string;
  samples?: string;
  cron?: string;
  timezone: string;
  every?: string;
  region: string[];
  callback?: string;
  disabled?: boolean;
}

/** `3`, or `min:max:targetWidth` (`3:10:0.4`). */
export function parseSamples(
  text: string,
): number | { min: number; max: number; targetWidth: number } {
  const parts = text.split(':').map((p) => Number(p.trim()));
  if (parts.length === 1 && Number.isFinite(parts[0])) return parts[0]!;
  if (parts.length === 3 && parts.every(Number.isFinite)) {
    const [min, max, targetWidth] = parts as [number, number, number];
    return { min, max, targetWidth };
  }
  throw new CliError(
    `--samples takes a count (3) or min:max:targetWidth (3:10:0.4), not "${text}"`,
    EXIT.usage,
  );
}

export function buildMonitor(
  prompts: readonly string[],
  o: MonitorOptions,
): Record<string, unknown> {
  if ((o.cron === undefined) === (o.every === undefined)) {
    throw new CliError('give a schedule: --cron <expression> or --every <minutes>', EXIT.usage);
  }
  return {
    name: o.name,
    prompts: [...prompts],
    platforms: parsePlatformSpecs(o.platform),
    regionCodes: o.region,
    monitorKeywords: o.keywords,
    ...(o.samples !== undefined && { samples: parseSamples(o.samples) }),
    schedule:
      o.cron !== undefined
        ? { cron: o.cron, timezone: o.timezone }
        : { everyMinutes: Number(o.every) },
    ...(o.callback !== undefined && { callbackUrl: o.callback }),
    enabled: !o.disabled,
  };
}
