/**
 * What every site replica hands a test, and the plumbing a replica's start
 * shares with the others: its options, the stream a prompt's directives
 * select, the mode a chat call's two switches ask for, a chat body read, and
 * the site served with its accounts. What differs per site (its protocol,
 * its markup, its errors) stays in replicas/<site>/.
 */
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import type { Mode } from '../../services/shared/platforms.js';
import type { Drifts } from './drift.js';
import { startSite, variantOf, type Asked, type Route, type Site, type Variant } from './site.js';
import { streamVariantOf, type StreamVariant } from './stream-variants.js';

export interface Replica {
  url: string;
  site: Site;
  /** A logged-in test account, as a real browser would export it. */
  storageState(): StorageState;
  /** An account whose session the site no longer accepts. */
  expiredStorageState(): StorageState;
  close(): Promise<void>;
}

/** A replica that reads the mode off each chat call. */
export interface AskingReplica extends Replica {
  /** The mode each chat call asked for, as the replica read it from the request, in order. */
  readonly asked: Asked[];
}

export interface ReplicaOptions {
  port?: number;
  /** Delay between streamed frames, ms. */
  latencyMs?: number;
  /** How the site has drifted (replicas/common/drift.ts); none by default. */
  drift?: Drifts;
}

/** A replica's run as its options set it: frame latency, drift, and the modes asked so far. */
export function runOf(opts: ReplicaOptions): { latency: number; drift: Drifts; asked: Asked[] } {
  return { latency: opts.latencyMs ?? 10, drift: opts.drift ?? 'none', asked: [] };
}

/** The mode a chat call asks for with its thinking and its search switch. */
export const modeOf = (think: boolean, search: boolean): Mode =>
  think ? (search ? 'reasoning_search' : 'reasoning') : search ? 'search' : 'standard';

const COMMON_KINDS = { refusal: 'refusal', unknown_frame: 'unknown_frame' } as const;

/**
 * The stream a prompt selects: a stream variant it names, else the first of
 * the site's own directives (`#replica:<name>` → kind) it carries, else the
 * common variant (site.ts) the site streams (refusal and unknown_frame
 * unless it says otherwise), else `normal`.
 */
export function streamKindOf<Kind extends string>(
  prompt: string,
  variants: readonly StreamVariant<Kind>[],
  own: Readonly<Record<string, Kind>> = {},
  common: Partial<Record<Variant, Kind>> = COMMON_KINDS as Partial<Record<Variant, Kind>>,
): Kind | 'normal' {
  const drift = streamVariantOf(prompt, variants);
  if (drift) return drift;
  const directive = Object.keys(own).find((name) => new RegExp(`#replica:${name}\\b`).test(prompt));
  if (directive) return own[directive]!;
  const v = variantOf(prompt);
  return (v && common[v]) || 'normal';
}

/** A chat call's JSON body; undefined when it is not JSON (the site's own 400 then). */
export function jsonBody<T>(raw: string): T | undefined {
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/**
 * Serves a replica's routes on 127.0.0.1 and hands back what every replica
 * hands a test; its accounts are made once the site's address is known.
 */
export async function serveReplica(
  routes: readonly Route[],
  port: number | undefined,
  accounts: (url: string) => Pick<Replica, 'storageState' | 'expiredStorageState'>,
): Promise<Replica> {
  const site = await startSite(routes, port ?? 0);
  return { url: site.url, site, ...accounts(site.url), close: () => site.close() };
}
