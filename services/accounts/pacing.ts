/**
 * How often an account may prompt, per platform: a quota of prompts per
 * window (Kimi limits rounds per 3 hours) and a least gap between two
 * prompts. The platform's definition gives the defaults; the operator's
 * `<P>_WEB_QUOTA` and `<P>_WEB_GAP_MS` win.
 */
import type { Config } from '../shared/config.js';
import { findPlatform } from '../shared/platforms.js';

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

/** Simulated sites define no pacing: a person's pace all the same. */
const DEFAULT_GAP_MS = 20_000;

export function pacingTable(config: Config): PacingTable {
  return (platform) => {
    const web = config.platforms[platform]?.web;
    const defined = findPlatform(platform)?.web;
    return {
      quota: web?.quota ?? defined?.quota ?? null,
      gapMs: web?.gapMs ?? defined?.gapMs ?? DEFAULT_GAP_MS,
    };
  };
}
