/**
 * The vocabulary a platform definition is written in
 * (`services/shared/platforms/<name>.ts`): modes, channels, and the shape
 * of one definition with its defaults. No imports: definitions are pure data,
 * read both by the services (the catalogue) and by crawler nodes (drivers,
 * settings, adverts).
 */
export const MODES = ['standard', 'reasoning', 'search', 'reasoning_search'] as const;
export type Mode = (typeof MODES)[number];

export const CHANNELS = ['api', 'web'] as const;
export type Channel = (typeof CHANNELS)[number];

/** A vendor API's defaults, overridden by the operator's configuration (`<P>_BASE_URL`, …). */
export interface ApiDefaults {
  baseUrl: string;
  /** Model per mode; a mode the vendor cannot do has none. */
  models: Readonly<Partial<Record<Mode, string>>>;
  timeoutMs: number;
}

/** Prompts one account may send per window (e.g. Kimi: 30 per 3 h). */
export interface WebQuota {
  prompts: number;
  perMs: number;
}

/** A consumer site's defaults, overridden by `<P>_WEB_URL`, `<P>_WEB_QUOTA`, … */
export interface WebDefaults {
  /** The site's origin; null: the local sandbox stand-in (SANDBOX_URL or the node's own). */
  url: string | null;
  /** null: the site states no per-account limit that a source confirms. */
  quota: WebQuota | null;
  /** Least time between two prompts of one account: a person's pace, not a script's. */
  gapMs: number;
  /** Deadline of one answer (simulated platforms take SANDBOX_TIMEOUT_MS instead). */
  timeoutMs: number;
  /**
   * Each sub task runs as one of the site's accounts (a logged-in identity of
   * the `accounts` service), so usable accounts are this site's capacity;
   * false: the site needs no login (the simulated ones).
   */
  needsAccounts: boolean;
}

/**
 * Where a platform serves: everywhere, or only outside mainland China (its API and its
 * consumer site refuse mainland users, and a Chinese region's proxy reaches neither). Every
 * `regionCode` is a mainland division (services/shared/divisions.ts), so a request naming one
 * for an `outside-mainland` platform is refused at submission.
 */
export const SERVES = ['everywhere', 'outside-mainland'] as const;
export type Serves = (typeof SERVES)[number];

export interface PlatformDefinition {
  /** Canonical lowercase name. */
  name: string;
  label: string;
  vendor: string;
  /** Other names a submission may use (lowercase, never another platform's). */
  aliases: readonly string[];
  /**
   * The channels this build can run, with their modes. A channel is listed
   * only when a driver for it exists, so the catalogue never offers work
   * nobody can do.
   */
  channels: Readonly<Partial<Record<Channel, readonly Mode[]>>>;
  /** The channel used unless the operator (PLATFORM_CHANNELS) or the request chooses another. */
  defaultChannel: Channel;
  /** Where it serves; absent: everywhere. */
  serves?: Serves;
  /** A built-in simulation: runs against the local sandbox and needs no credentials. */
  simulated?: true;
  /** Present on vendor platforms with an API channel. */
  api?: ApiDefaults;
  /** Present on platforms with a web channel. */
  web?: WebDefaults;
}
