import t from 'tap';
import { cellNeeds, foldRegion, fullGrid, planRound } from '../../../services/monitors/rounds.js';
import type { ResultItem } from '../../../services/monitors/snapshot.js';

const platform = (mode: 'search' | 'standard') =>
  ({ platform: 'sandbox', channel: 'api', mode, screenshot: 0 }) as const;
const shape = {
  prompts: 2,
  platforms: [platform('search'), platform('standard')],
  keywords: ['Acme', 'Globex'],
  targetWidth: 0.6,
};

/** An answer that names Acme or not. */
const item = (seq: number, named: boolean): ResultItem => ({
  seq,
  result: { status: 'completed', answerContent: named ? 'Acme' : 'other', citationList: [] },
  brand: {
    mentions: [
      {
        keyword: 'Acme',
        count: named ? 1 : 0,
        firstIndex: named ? 0 : null,
        position: null,
        groupRank: null,
        inReasoning: false,
        inReferences: false,
        inCitations: false,
      },
    ],
    mentioned: named,
    sentiment: null,
  },
});

t.test('a round holds only the cells that want more, in as few grids as fit', async (t) => {
  // Cells prompt-major: (p0, search), (p0, standard), (p1, search), (p1, standard).
  t.strictSame(planRound([0, 0, 0, 0], 2), [], 'no cell wants more: the region is done');
  t.strictSame(planRound([3, 3, 0, 0], 2), [{ prompts: [0], platforms: [0, 1], samples: 3 }]);
  t.strictSame(planRound([3, 0, 0, 3], 2), [
    { prompts: [0], platforms: [0], samples: 3 },
    { prompts: [1], platforms: [1], samples: 3 },
  ]);
  t.strictSame(planRound([2, 2, 7, 2], 2), [
    { prompts: [0], platforms: [0], samples: 2 },
    { prompts: [0, 1], platforms: [1], samples: 2 },
    { prompts: [1], platforms: [0], samples: 7 },
  ]);
});

t.test('items of several tasks fold into the run cells', async (t) => {
  const sampling = { min: 2, max: 6, targetWidth: 0.6 };
  // The region's own task: 2 samples of every cell; p1 on search varies.
  const own = [
    item(0, true),
    item(1, true),
    item(2, true),
    item(3, true),
    item(4, true),
    item(5, false),
    item(6, true),
    item(7, true),
  ];
  let cells = foldRegion(shape, [{ grid: fullGrid(2, 2, 2), items: own }]);
  t.strictSame(
    cells.map((c) => [c.asked, c.groups[0]!.mentioned]),
    [
      [2, 2],
      [2, 2],
      [2, 1],
      [2, 2],
    ],
  );
  const needs = cellNeeds(cells, sampling);
  t.equal(needs[2]! > 0, true, 'the split cell wants more');
  t.ok(needs[0]! > 0, 'two unanimous answers are still 0.66 wide');
  // A follow-up asking (p1, search) three more times, seq laid out in its own grid.
  const grid = { prompts: [1], platforms: [0], samples: 3 };
  cells = foldRegion(shape, [
    { grid: fullGrid(2, 2, 2), items: own },
    { grid, items: [item(0, true), item(1, false), item(2, true)] },
  ]);
  t.equal(cells[2]!.asked, 5);
  t.equal(cells[2]!.groups[0]!.mentioned, 3);
  t.equal(cells[2]!.prompt, 1);
  t.equal(cells[2]!.mode, 'search');
  t.equal(cells[0]!.asked, 2, 'other cells untouched');
  t.equal(cells[2]!.targetWidth, 0.6, 'the folded cells carry the target');
  t.ok(Math.abs(cells[2]!.widthReached! - 0.6517) < 1e-3, 'Wilson width of 3/5, both rounds');
  const fixed = foldRegion({ ...shape, targetWidth: null }, [
    { grid: fullGrid(2, 2, 2), items: own },
  ]);
  t.equal(fixed[0]!.targetWidth, null, 'a fixed count has no target');
});
