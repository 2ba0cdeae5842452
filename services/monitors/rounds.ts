/**
 * Follow-up rounds of adaptive sampling, pure. When every task of a region's
 * run is final, its cells are folded from all of them; each cell the rule of
 * figures/sampling.ts still finds too wide is asked again in the next round.
 * A task asks a grid (its prompts × its platforms, each cell `samples`
 * times), so a round groups its cells into grids that hold only them: cells
 * wanting the same number of samples, platforms wanting the same prompts.
 */
import type { CellSnapshot, ResultItem, RunShape } from './snapshot.js';
import { snapshotCells } from './snapshot.js';
import { moreSamples, type Samples } from './figures/sampling.js';

/** Which cells of the run a task asks: indices into the run's prompts and platforms. */
export interface Grid {
  prompts: number[];
  platforms: number[];
  samples: number;
}

/** A follow-up task of a run's region, its id chosen before it is submitted. */
export interface FollowUpDoc extends Grid {
  /** 1 for the first follow-up round (the region's own task is round 0). */
  round: number;
  taskId: string;
  submitted: boolean;
  /** Why tasks.submit refused it; null: it did not. */
  error: string | null;
}

/** One task of a region and its sub tasks, as tasks.exportPage hands them out. */
export interface RegionPart {
  grid: Grid;
  items: ResultItem[];
}

/** The grid of the region's own task: every cell, `samples` times. */
export function fullGrid(prompts: number, platforms: number, samples: number): Grid {
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  return { prompts: range(prompts), platforms: range(platforms), samples };
}

/**
 * The region's cells from all its tasks: each sub task goes to its cell of
 * the run (through its task's grid), and the merged items are numbered so
 * that snapshotCells folds them cell by cell; each cell carries the run's
 * `targetWidth` and the Wilson width its brand's rate reached over all rounds.
 */
export function foldRegion(
  shape: Omit<RunShape, 'samples'>,
  parts: readonly RegionPart[],
): CellSnapshot[] {
  const platforms = shape.platforms.length;
  const owned = parts.flatMap(({ grid, items }) =>
    items.map((item) => {
      const local = Math.floor(item.seq / grid.samples);
      const prompt = grid.prompts[Math.floor(local / grid.platforms.length)]!;
      const platform = grid.platforms[local % grid.platforms.length]!;
      return { cell: prompt * platforms + platform, item };
    }),
  );
  const taken = new Map<number, number>();
  for (const { cell } of owned) taken.set(cell, (taken.get(cell) ?? 0) + 1);
  const stride = Math.max(1, ...taken.values());
  const next = new Map<number, number>();
  const merged = owned.map(({ cell, item }) => {
    const ordinal = next.get(cell) ?? 0;
    next.set(cell, ordinal + 1);
    return { ...item, seq: cell * stride + ordinal };
  });
  return snapshotCells({ ...shape, samples: stride }, merged);
}

/** The samples each cell takes next (0: done), by the monitored brand's mention rate. */
export function cellNeeds(cells: readonly CellSnapshot[], sampling: Samples): number[] {
  return cells.map((c) =>
    moreSamples(
      sampling,
      { answered: c.answered, mentioned: c.groups[0]?.mentioned ?? 0 },
      c.asked,
    ),
  );
}

/**
 * The grids of the next round (empty: the region is done). Cells are indexed
 * prompt-major (prompt × platforms + platform), as snapshotCells lays them out.
 */
export function planRound(needs: readonly number[], platforms: number): Grid[] {
  const bySamples = new Map<number, Map<number, number[]>>();
  needs.forEach((more, cell) => {
    if (more <= 0) return;
    const byPlatform = bySamples.get(more) ?? new Map<number, number[]>();
    bySamples.set(more, byPlatform);
    const platform = cell % platforms;
    byPlatform.set(platform, [...(byPlatform.get(platform) ?? []), Math.floor(cell / platforms)]);
  });
  const grids: Grid[] = [];
  for (const [samples, byPlatform] of [...bySamples].sort(([a], [b]) => a - b)) {
    const byPrompts = new Map<string, Grid>();
    for (const [platform, prompts] of [...byPlatform].sort(([a], [b]) => a - b)) {
      const key = prompts.join(',');
      const grid = byPrompts.get(key);
      if (grid) grid.platforms.push(platform);
      else byPrompts.set(key, { prompts, platforms: [platform], samples });
    }
    grids.push(...byPrompts.values());
  }
  return grids;
}
