/**
 * How often an account may prompt, per platform: a quota of prompts per
 * window (Kimi limits rounds per 3 hours) and a least gap between two
 * prompts. Defaults here; the operator's `<P>_WEB_QUOTA` and `<P>_WEB_GAP_MS`
 * win. Services cannot import the crawler's platform definitions, so the
 * table is built in this one function and injected into the service.
 */
import type { Config } from '../shared/config.js';

export interface Quota {
  prompts: number;
  perMs: number;
}

export interface Pacing {
  /** null: the site has no known per-account quota. */
  quota: Quota | null;
  gapMs: number;
}

export type PacingTable = (platform: string) => Pacing;

const HOUR = 3_600_000;
const DEFAULT_GAP_MS = 20_000;
const DEFAULT_QUOTAS: Readonly<Record<string, Quota>> = {
  kimi: { prompts: 30, perMs: 3 * HOUR },
};

export function pacingTable(config: Config): PacingTable {
  return (platform) => {
    const web = config.platforms[platform]?.web;
    return {
      quota: web?.quota ?? DEFAULT_QUOTAS[platform] ?? null,
      gapMs: web?.gapMs ?? DEFAULT_GAP_MS,
    };
  };
}
