/**
 * Platform calls adaptive sampling saves (issue 23; `npm run bench:monitors` times trends):
 * one region's run of a monitor on the sandbox's varied prompts, round by
 * round, against asking every cell a fixed `max`. The sandbox's own answer
 * and `#vary:` draws (sandbox/simulation.ts) and the brand matcher give each
 * sample; the monitors service's round logic (services/monitors/rounds.ts)
 * folds the rounds and plans the next, as the service does once a round's
 * tasks are final. No servers: the figure is the rule's, not the transport's.
 * Prompts all lead with the monitored brand and name it in 0 to 100 % of asks
 * (`#vary:<percent>` in a fixed cycle; 100 and 0 are stable cells).
 * Options: --prompts (default 50), --min (5), --max (20), --target-width (0.3).
 */
import { parseArgs } from 'node:util';
import { brandsFor, sandboxAnswer } from '../sandbox/answers.js';
import { Simulation } from '../sandbox/simulation.js';
import { brandFields } from '../services/shared/brand/mentions.js';
import { keywordGroups } from '../services/shared/brand/groups.js';
import type { Mode } from '../services/shared/platforms.js';
import type { PlatformConfig } from '../services/shared/requests/submission.js';
import type { ResultItem } from '../services/monitors/snapshot.js';
import {
  cellNeeds,
  foldRegion,
  fullGrid,
  planRound,
  type Grid,
  type RegionPart,
} from '../services/monitors/rounds.js';

const { values } = parseArgs({
  options: {
    prompts: { type: 'string', default: '50' },
    min: { type: 'string', default: '5' },
    max: { type: 'string', default: '20' },
    'target-width': { type: 'string', default: '0.3' },
  },
});
const prompts = Number(values.prompts);
const sampling = {
  min: Number(values.min),
  max: Number(values.max),
  targetWidth: Number(values['target-width']),
};
if (!Number.isInteger(prompts) || prompts < 1) throw new Error('--prompts must be an integer >= 1');

const BRAND = 'Acme';
const VARY_CYCLE = [100, 90, 70, 50, 30, 10, 0];
const MODES: Mode[] = ['search', 'standard'];
const platforms: PlatformConfig[] = MODES.map((mode) => ({
  platform: 'sandbox',
  channel: 'api',
  mode,
  screenshot: 0,
}));
const groups = keywordGroups([BRAND]);

/** Prompts whose answers lead with the monitored brand, each with its `#vary:` share. */
const texts: string[] = [];
for (let i = 0; texts.length < prompts; i++) {
  const text = `which CRM should a team of ${i} pick`;
  if (brandsFor(text)[0]!.name !== BRAND) continue;
  texts.push(`${text} #vary:${VARY_CYCLE[texts.length % VARY_CYCLE.length]}`);
}

const simulation = new Simulation();
let asked = 0;

/** One task of the round: its grid's cells asked `samples` times, as the tasks service orders them. */
function ask(grid: Grid): RegionPart {
  const items: ResultItem[] = [];
  for (const p of grid.prompts) {
    for (const c of grid.platforms) {
      for (let s = 0; s < grid.samples; s++) {
        const prompt = texts[p]!;
        const mode = platforms[c]!.mode;
        const answer = sandboxAnswer(prompt, mode, simulation.withoutLead(prompt, mode));
        items.push({
          seq: items.length,
          result: {
            status: 'completed',
            answerContent: answer.answerContent,
            citationList: answer.citationList,
          },
          brand: { ...brandFields(groups, answer), sentiment: null },
        });
        asked++;
      }
    }
  }
  return { grid, items };
}

const shape = {
  prompts: texts.length,
  platforms,
  keywords: [BRAND],
  targetWidth: sampling.targetWidth,
};
const parts = [ask(fullGrid(texts.length, platforms.length, sampling.min))];
let rounds = 0;
let cells = foldRegion(shape, parts);
for (;;) {
  const grids = planRound(cellNeeds(cells, sampling), platforms.length);
  if (grids.length === 0) break;
  rounds++;
  parts.push(...grids.map(ask));
  cells = foldRegion(shape, parts);
}

const fixed = cells.length * sampling.max;
console.log(
  `== adaptive sampling (services/monitors/rounds.ts) on the sandbox's #vary prompts, node ${process.version}`,
);
console.log(
  `cells: ${texts.length} prompts × ${platforms.length} modes = ${cells.length}, samples {min ${sampling.min}, max ${sampling.max}, targetWidth ${sampling.targetWidth}}`,
);
console.log(`follow-up rounds: ${rounds}`);
for (const percent of VARY_CYCLE) {
  const of = cells.filter((c) => texts[c.prompt]!.endsWith(`#vary:${percent}`));
  if (of.length === 0) continue;
  const mean = of.reduce((sum, c) => sum + c.asked, 0) / of.length;
  console.log(`   #vary:${percent}: ${of.length} cells, ${mean.toFixed(1)} samples per cell`);
}
console.log(
  `asked ${asked} of ${fixed} at a fixed max (${cells.length} cells × ${sampling.max}): ratio ${(asked / fixed).toFixed(3)}, ${fixed - asked} calls saved`,
);
