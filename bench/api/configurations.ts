/**
 * What the submission benchmark submits, pure: every configuration the
 * catalogue offers now (available platform × its modes × screenshot variant),
 * packed into as few submissions as the contract allows. A submission keeps
 * one configuration per platform (spec 4.1 deduplicates by name), so it takes
 * one configuration of each platform in turn.
 */

/** An entry of GET /api/business/monitor/platforms, as far as the benchmark reads it. */
export interface CatalogueEntry {
  platform: string;
  modes: string[];
  available: boolean | null;
}

export interface PlatformConfiguration {
  platform: string;
  mode: string;
  screenshot: 0 | 1 | 2;
}

export const SCREENSHOT_VARIANTS = [0, 1, 2] as const;

/** Every configuration of the platforms that are available (null: no node known, not offered). */
export function availableConfigurations(
  catalogue: readonly CatalogueEntry[],
  screenshots: readonly (0 | 1 | 2)[] = SCREENSHOT_VARIANTS,
): PlatformConfiguration[] {
  return catalogue
    .filter((entry) => entry.available === true)
    .flatMap((entry) =>
      entry.modes.flatMap((mode) =>
        screenshots.map((screenshot) => ({ platform: entry.platform, mode, screenshot })),
      ),
    );
}

/**
 * Packs configurations into submissions of distinct platforms, at most
 * `perSubmission` each: the i-th configuration of every platform goes into
 * submission i (split further past the limit). Nothing is lost or repeated.
 */
export function packSubmissions(
  configurations: readonly PlatformConfiguration[],
  perSubmission: number,
): PlatformConfiguration[][] {
  const rounds: PlatformConfiguration[][] = [];
  const seen = new Map<string, number>();
  for (const cfg of configurations) {
    const round = seen.get(cfg.platform) ?? 0;
    seen.set(cfg.platform, round + 1);
    (rounds[round] ??= []).push(cfg);
  }
  return rounds.flatMap((round) => {
    const parts: PlatformConfiguration[][] = [];
    for (let i = 0; i < round.length; i += perSubmission)
      parts.push(round.slice(i, i + perSubmission));
    return parts;
  });
}
