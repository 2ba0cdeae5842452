/** What trends and change detection read of a finished run: its snapshots, nothing else. */
import type { CellSnapshot } from '../snapshot.js';

export interface RunFigures {
  runId: string;
  slot: number;
  finishedAt: number | null;
  /** Each prompt's tags, by prompt index. */
  promptTags: string[][];
  regions: { regionCode: string | null; cells: CellSnapshot[] | null }[];
}

/** Every snapshot cell of a run with its region. */
export function* cellsOf(run: RunFigures): Generator<[string | null, CellSnapshot]> {
  for (const region of run.regions) {
    for (const cell of region.cells ?? []) yield [region.regionCode, cell];
  }
}
