/**
 * The body of `POST /task/batch/shared` from the `submit` options (pure):
 * prompts from the arguments and the `--file` text (one per line), the
 * platform specs, name, region, keywords, callback and screenshot choice.
 */
import { CliError, EXIT } from './exit-codes.js';
import { parsePlatformSpecs, type PlatformConfig } from './platform-spec.js';

export interface SubmitOptions {
  platform: string[];
  name?: string;
  region?: string;
  keywords?: string;
  callback?: string;
  /** true: a screenshot (1); '2': a screenshot with the mentions highlighted. */
  screenshot?: boolean | string;
}

export interface SubmissionBody {
  name?: string;
  prompts: string[];
  platforms: PlatformConfig[];
  regionCode?: string[];
  monitorKeywords?: string;
  callbackUrl?: string;
}

/** One prompt per non-blank line; CRLF files and a UTF-8 BOM are read alike. */
export function promptsOfFile(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export function screenshotLevel(value: boolean | string | undefined): 0 | 1 | 2 {
  if (value === undefined || value === false) return 0;
  if (value === true || value === '1') return 1;
  if (value === '2' || value === 'mentions') return 2;
  if (value === '0') return 0;
  throw new CliError(`--screenshot takes 1 or 2 (mentions), not "${value}"`, EXIT.usage);
}

export function buildSubmission(prompts: readonly string[], o: SubmitOptions): SubmissionBody {
  if (prompts.length === 0) {
    throw new CliError('no prompts: give them as arguments or with --file', EXIT.usage);
  }
  if (o.platform.length === 0) {
    throw new CliError('no platforms: give at least one -p platform[:mode][:channel]', EXIT.usage);
  }
  const screenshot = screenshotLevel(o.screenshot);
  const body: SubmissionBody = {
    ...(o.name !== undefined && { name: o.name }),
    prompts: [...prompts],
    platforms: parsePlatformSpecs(o.platform).map((p) =>
      screenshot === 0 ? p : { ...p, screenshot },
    ),
  };
  if (o.region !== undefined) body.regionCode = [o.region];
  if (o.keywords !== undefined) body.monitorKeywords = o.keywords;
  if (o.callback !== undefined) body.callbackUrl = o.callback;
  return body;
}
