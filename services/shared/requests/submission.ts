/**
 * Validation and normalisation of a batch submission (spec 4.1), pure.
 * The same zod schema feeds the OpenAPI document, so docs and checks never drift.
 */
import { z } from 'zod';
import {
  CHANNELS,
  channelsOf,
  effectiveChannel,
  findPlatform,
  isChannel,
  isMode,
  MODES,
  PLATFORMS,
  supportedModes,
  type Channel,
  type Mode,
  type PlatformInfo,
} from '../platforms.js';
import { pairKey } from '../contracts/advert.js';
import type { FieldProblem } from '../errors.js';
import { verdictOf, type AvailabilityFacts, type Missing } from '../availability.js';
import { parseKeywords } from '../brand/keywords.js';
import { zodProblems } from '../validation.js';

export const LIMITS = Object.freeze({
  prompts: 50,
  platforms: 50,
  promptChars: 10_000,
  keywordsChars: 2_000,
  urlChars: 2_048,
  nameChars: 200,
});

const VALID_NAMES = PLATFORMS.map((p) => p.name).join(', ');

const platformConfigSchema = z
  .object({
    platform: z
      .string({ error: 'must be a string' })
      .min(1, 'must not be empty')
      .refine((name) => findPlatform(name) !== undefined, {
        error: `unknown platform; valid platforms: ${VALID_NAMES}`,
      })
      .meta({
        description: 'Platform name (canonical or alias, case-insensitive)',
        examples: ['chatgpt'],
      }),
    channel: z
      .enum(CHANNELS, { error: `must be one of ${CHANNELS.join(', ')}` })
      .nullable()
      .optional()
      .meta({
        description:
          'api (the vendor API) or web (the consumer site); absent or null: the operator default. A batch may name a platform once per channel.',
      }),
    mode: z.enum(MODES, { error: `must be one of ${MODES.join(', ')}` }),
    screenshot: z
      .union([z.literal(0), z.literal(1), z.literal(2)], {
        error: 'must be 0 (none), 1 (screenshot) or 2 (screenshot of mentions)',
      })
      .nullable()
      .default(0),
  })
  .meta({ id: 'PlatformConfig' });

/**
 * Text without U+0000: MongoDB-compatible stores differ on NUL inside strings
 * (PostgreSQL-backed ones refuse it), and no prompt or keyword needs one.
 */
const text = () =>
  z.string({ error: 'must be a string' }).regex(/^[^\u0000]*$/, 'must not contain NUL characters');

const HTTP_URL = 'must be an absolute http:// or https:// URL';

/** A callback address; whether its host may be reached is checked apart (services/callbacks). */
export const callbackUrlSchema = text()
  .max(LIMITS.urlChars, `must be at most ${LIMITS.urlChars} characters`)
  .regex(/^https?:\/\//i, HTTP_URL)
  .refine(isHttpUrl, HTTP_URL)
  .meta({ format: 'uri', description: 'An absolute http(s) URL (WHATWG URL syntax)' });

export const regionCodeSchema = z
  .string({ error: 'must be a string' })
  .regex(/^[0-9]{2,12}$/, 'must be an administrative division code (2 to 12 digits)');

/** `null` is accepted as "not given" for optional fields, as many JSON clients send it. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** A task's name: trimmed; blank is no name; one line, as lists and tables show it. */
const nameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(LIMITS.nameChars, `must be at most ${LIMITS.nameChars} characters`)
  .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters (line breaks, tabs, NUL)')
  .meta({
    description: `A name for the task, shown in lists, the dashboard and exports: trimmed, at most ${LIMITS.nameChars} characters, one line; blank or absent: no name`,
    examples: ['CRM shortlist, week 12'],
  });

export const submissionSchema = z
  .object({
    name: optional(nameSchema),
    monitorKeywords: optional(
      text().max(LIMITS.keywordsChars, `must be at most ${LIMITS.keywordsChars} characters`).meta({
        description:
          "Brands to look for in the answers: entries separated by , ， 、 ; ； or newlines; within an entry, | separates aliases of one brand, the first naming it (Acme|阿克米|ACME Inc.|acme.com); an alias that is a domain marks the brand's own sites (cited domains tagged owned for the first entry, competitor for the others). Matching is case-insensitive on NFKC-normalised text; Latin aliases match whole words, CJK aliases as substrings; Markdown syntax and link URLs are not text. Each sub task result then carries mentions, mentioned and sentiment, and the full result a visibility summary.",
      }),
    ),
    prompts: z
      .array(
        text()
          .max(LIMITS.promptChars, `must be at most ${LIMITS.promptChars} characters`)
          // \S is exactly what String.prototype.trim keeps, and a pattern reaches the OpenAPI document.
          .regex(/\S/, 'must not be blank'),
        { error: 'is required and must be an array of strings' },
      )
      .min(1, 'must contain at least one prompt')
      .max(LIMITS.prompts, `must contain at most ${LIMITS.prompts} prompts`),
    platforms: z
      .array(platformConfigSchema, {
        error: 'is required and must be an array of platform configurations',
      })
      .min(1, 'must contain at least one platform configuration')
      .max(
        LIMITS.platforms,
        `must contain at most ${LIMITS.platforms} entries (counted before deduplication)`,
      ),
    regionCode: optional(
      z
        .array(regionCodeSchema, { error: 'must be an array with exactly one region code' })
        .length(1, 'must contain exactly one region code'),
    ),
    callbackUrl: optional(callbackUrlSchema),
  })
  .meta({ id: 'BatchSubmission' });

export type SubmissionInput = z.input<typeof submissionSchema>;

export interface PlatformConfig {
  platform: string;
  /** The channel it runs on: the requested one, else the operator default. */
  channel: Channel;
  mode: Mode;
  screenshot: 0 | 1 | 2;
}

export interface Submission {
  /** null: no name (absent or blank). */
  name: string | null;
  prompts: string[];
  platforms: PlatformConfig[];
  regionCode: string | null;
  callbackUrl: string | null;
  monitorKeywords: string | null;
  keywords: string[];
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldProblem[] };

/**
 * `facts`: what runs (availability.ts); a configuration whose pair is
 * unavailable for the request's region is refused, naming what is missing. A
 * pair that cannot be told yet (no crawler node up) is accepted: its sub tasks
 * wait for a node, as they would for a busy one. Without facts, only the
 * catalogue is checked.
 */
export function checkSubmission(
  body: unknown,
  channelChoices: Readonly<Record<string, string>> = {},
  facts?: AvailabilityFacts,
): Checked<Submission> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  }
  const parsed = submissionSchema.safeParse(body);
  // The pair rules are checked on the raw input so they are reported alongside every other problem.
  const errors = [
    ...(parsed.success ? [] : zodProblems(parsed.error)),
    ...pairProblems(body, channelChoices, facts),
  ];
  if (!parsed.success || errors.length > 0) return { ok: false, errors };
  const input = parsed.data;
  return {
    ok: true,
    value: {
      name: input.name || null,
      prompts: input.prompts,
      platforms: dedupePlatforms(input.platforms, channelChoices),
      regionCode: input.regionCode?.[0] ?? null,
      callbackUrl: input.callbackUrl ?? null,
      monitorKeywords: input.monitorKeywords ?? null,
      keywords: parseKeywords(input.monitorKeywords ?? ''),
    },
  };
}

/**
 * Spec 4.1 rule 1: platforms are deduplicated by name, case-insensitively, and
 * the first occurrence wins. Aliases name the same platform, so they count as
 * duplicates too; results carry the canonical name. A platform may appear
 * once per channel, so API and consumer-site answers can sit side by side: the
 * key is the name and the effective channel (the requested one, else the
 * operator default).
 */
export function dedupePlatforms(
  configs: readonly {
    platform: string;
    channel?: Channel | null;
    mode: Mode;
    screenshot?: PlatformConfig['screenshot'] | null;
  }[],
  channelChoices: Readonly<Record<string, string>> = {},
): PlatformConfig[] {
  const seen = new Set<string>();
  const kept: PlatformConfig[] = [];
  for (const cfg of configs) {
    const info = findPlatform(cfg.platform);
    const canonical = info?.name ?? cfg.platform.toLowerCase();
    const channel = info
      ? effectiveChannel(info, cfg.channel, channelChoices)
      : (cfg.channel ?? 'api');
    const key = pairKey(canonical, channel);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push({ platform: canonical, channel, mode: cfg.mode, screenshot: cfg.screenshot ?? 0 });
  }
  return kept;
}

/**
 * Per configuration whose platform is known and whose channel is valid (or
 * absent): the platform must have the channel, support the mode over it, and,
 * when `facts` are given, the pair must not be unavailable.
 */
export function pairProblems(
  body: object,
  channelChoices: Readonly<Record<string, string>>,
  facts: AvailabilityFacts | undefined,
): FieldProblem[] {
  const platforms = (body as { platforms?: unknown }).platforms;
  if (!Array.isArray(platforms)) return [];
  const regionCode = requestedRegion(body);
  const problems: FieldProblem[] = [];
  platforms.forEach((cfg: unknown, i) => {
    const { platform, channel, mode } = (cfg ?? {}) as Record<string, unknown>;
    const info = typeof platform === 'string' ? findPlatform(platform) : undefined;
    if (!info || !(channel == null || isChannel(channel))) return;
    const effective = effectiveChannel(info, channel, channelChoices);
    const modes = info.channels[effective];
    if (!modes) {
      problems.push({
        field: `platforms[${i}].channel`,
        message: `${info.name} has no ${effective} channel; its channels: ${channelsOf(info).join(', ')}`,
      });
      return;
    }
    if (isMode(mode) && !modes.includes(mode)) {
      problems.push({
        field: `platforms[${i}].mode`,
        message: `${info.name} does not support mode ${mode} on the ${effective} channel; supported: ${supportedModes(info, effective).join(', ')}`,
      });
    }
    const verdict = facts && verdictOf(info, effective, regionCode, facts);
    if (verdict?.available === false) {
      const hints = verdict.missing.map((m) => HINTS[m](effective)).join('; ');
      problems.push({
        field: `platforms[${i}].platform`,
        message: `${info.name} is unavailable on the ${effective} channel: ${verdict.reason} (${hints})${availableNow(regionCode, facts!)}`,
      });
    }
  });
  return problems;
}

/** What an operator does about each missing part. */
const HINTS: Record<Missing, (channel: Channel) => string> = {
  node: (channel) =>
    channel === 'api'
      ? "a vendor's API channel needs its API key on the node"
      : "a web channel needs a node whose CRAWLER_CHANNELS include web and that has the site's driver",
  account: () => 'an operator adds one: `npm run admin -- account add`',
  region: () =>
    'submit it without regionCode: it then leaves from the node itself (docs/operations.md, "Proxy regions")',
};

/** The region the request names, when it names a well-formed one (else its own problem). */
/** The one well-formed region code a request asks for, else null (other rules report a malformed one). */
export function requestedRegion(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const codes = (body as { regionCode?: unknown }).regionCode;
  if (!Array.isArray(codes) || codes.length !== 1) return null;
  const parsed = regionCodeSchema.safeParse(codes[0]);
  return parsed.success ? parsed.data : null;
}

/**
 * "; available: deepseek (api), sandbox (api, web)": the available pairs, by
 * platform in catalogue order; nothing while no crawler node is up (then no
 * pair is known to be available).
 */
function availableNow(regionCode: string | null, facts: AvailabilityFacts): string {
  if (facts.nodes.length === 0) return '';
  const runs = (p: PlatformInfo) =>
    channelsOf(p).filter((c) => verdictOf(p, c, regionCode, facts).available === true);
  const listed = PLATFORMS.filter((p) => runs(p).length > 0).map(
    (p) => `${p.name} (${runs(p).join(', ')})`,
  );
  return `; available: ${listed.length > 0 ? listed.join(', ') : 'none'}`;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Ports per region code, as the proxies service counts them (`proxies.regions`). */
export type RegionPorts = Readonly<Record<string, { ports: number; active: number }>>;

/**
 * Spec 4.1 / DESIGN "Region codes": the code must be one the city lookup
 * returns now, with at least one active port; otherwise the task could only
 * wait and fail, so it is refused up front.
 */
export function regionProblem(code: string, regions: RegionPorts): FieldProblem | undefined {
  const r = regions[code];
  if (!r) {
    return {
      field: 'regionCode[0]',
      message: `${code} is not a region any proxy port serves now; GET /api/business/eip-edge/ports/city-info lists them`,
    };
  }
  if (r.active === 0) {
    return {
      field: 'regionCode[0]',
      message: `region ${code} has no active proxy port now (${r.ports} inactive); try again later or choose another region`,
    };
  }
  return undefined;
}
