/**
 * A finished region's figures, pure: the sub tasks of its task (as
 * `tasks.exportPage` hands them out) folded into one entry per cell. Counts
 * are kept, not rates, so that trends can pool cells and runs and compute each
 * interval from the counts. This is what outlives the task retention purge.
 */
import type { ExportItem } from '../shared/contracts/export.js';
import type { Reference } from '../shared/contracts/answer.js';
import type { DiscoveredEntry } from '../shared/contracts/brand.js';
import { brandKey } from '../shared/brand/brand-name.js';
import { domainOf } from '../shared/brand/domains.js';
import { keywordGroups } from '../shared/brand/groups.js';
import type { PlatformConfig } from '../shared/requests/submission.js';
import { stability } from './figures/stability.js';
import { width, wilson } from './figures/wilson.js';

/** One keyword group (brand) in one cell: how many answers named it, and where. */
export interface GroupCounts {
  keyword: string;
  mentioned: number;
  /** Mentions in all answers (a mention's `count` summed): the numerator of share of voice. */
  mentionCount: number;
  /** The brand's place among all brands each mentioning answer recommends, when it has one. */
  positions: number[];
  inReasoning: number;
  inReferences: number;
  inCitations: number;
  /** Answers whose reasoning names the brand and whose text does not: considered but dropped. */
  droppedAfterReasoning: number;
}

/**
 * A brand the cell's answers recommend that no group watches (discovered.ts),
 * merged by its key (brand-name.ts brandKey): how many answers named it, and
 * its places among all the brands they recommend.
 */
export interface DiscoveredCounts {
  key: string;
  /** As first written in the cell. */
  name: string;
  mentioned: number;
  positions: number[];
}

export interface CellSnapshot {
  prompt: number;
  platform: string;
  channel: string;
  mode: string;
  /** Sub tasks asked. */
  asked: number;
  /** Of those, completed with an answer in the cell's mode: the n of every rate. */
  answered: number;
  /**
   * Completed in another mode than the cell's (a silent fallback, the sub task's effectiveMode):
   * counted here only, so that a mode's figures hold only answers of that mode.
   */
  ranOtherMode: number;
  groups: GroupCounts[];
  /** The brands the answers recommend that no group watches; absent on cells snapshotted before they were kept. */
  discovered?: DiscoveredCounts[];
  /** Cited domains, each counted once per answer that cites it. */
  citedDomains: Record<string, number>;
  /** Mean pairwise word-set Jaccard of the answers (figures/stability.ts); null under two. */
  stability: number | null;
  /** The distinct models the platform reported for the cell's sub tasks, sorted; [] when none did. */
  models: string[];
  /** The monitor's `samples.targetWidth`; null for a fixed count. */
  targetWidth: number | null;
  /** The Wilson width of the monitored brand's (entry 0) mention rate; null without keywords. */
  widthReached: number | null;
}

export type ResultItem = ExportItem<{
  status: string;
  answerContent: string | null;
  citationList: Reference[];
  /** Absent on sub tasks recorded before models were: unknown, as null. */
  modelReported?: string | null;
  /** The mode that ran; null or absent: the one asked for. */
  effectiveMode?: string | null;
}>;

export interface RunShape {
  prompts: number;
  platforms: readonly PlatformConfig[];
  /** Samples per cell in the task. */
  samples: number;
  /** The task's keyword entries, in order: entry 0 is the monitored brand. */
  keywords: readonly string[];
  /** `samples.targetWidth` of an adaptive monitor; null for a fixed count. */
  targetWidth: number | null;
}

/** A keyword group no answer has named yet. */
export function emptyGroup(keyword: string): GroupCounts {
  return {
    keyword,
    mentioned: 0,
    mentionCount: 0,
    positions: [],
    inReasoning: 0,
    inReferences: 0,
    inCitations: 0,
    droppedAfterReasoning: 0,
  };
}

function emptyCell(shape: RunShape, cell: number): CellSnapshot {
  const cfg = shape.platforms[cell % shape.platforms.length]!;
  return {
    prompt: Math.floor(cell / shape.platforms.length),
    platform: cfg.platform,
    channel: cfg.channel,
    mode: cfg.mode,
    asked: 0,
    answered: 0,
    ranOtherMode: 0,
    groups: keywordGroups(shape.keywords).map(({ keyword }) => emptyGroup(keyword)),
    discovered: [],
    citedDomains: {},
    stability: null,
    models: [],
    targetWidth: shape.targetWidth,
    widthReached: null,
  };
}

export function snapshotCells(shape: RunShape, items: Iterable<ResultItem>): CellSnapshot[] {
  const cells = Array.from({ length: shape.prompts * shape.platforms.length }, (_, i) =>
    emptyCell(shape, i),
  );
  const answers: string[][] = cells.map(() => []);
  const models = cells.map(() => new Set<string>());
  for (const item of items) {
    const index = Math.floor(item.seq / shape.samples);
    const cell = cells[index]!;
    cell.asked++;
    if (item.result.modelReported) models[index]!.add(item.result.modelReported);
    if (item.result.status !== 'completed') continue;
    if (item.result.effectiveMode && item.result.effectiveMode !== cell.mode) {
      cell.ranOtherMode++;
      continue;
    }
    cell.answered++;
    answers[index]!.push(item.result.answerContent ?? '');
    for (const mention of item.brand.mentions) {
      const group = cell.groups.find((g) => g.keyword === mention.keyword);
      if (!group) continue;
      if (mention.count > 0) group.mentioned++;
      group.mentionCount += mention.count;
      if (mention.inReasoning && mention.count === 0) group.droppedAfterReasoning++;
      if (mention.position !== null) group.positions.push(mention.position);
      if (mention.inReasoning) group.inReasoning++;
      if (mention.inReferences) group.inReferences++;
      if (mention.inCitations) group.inCitations++;
    }
    addDiscovered(cell, item.discovered ?? []);
    const domains = new Set(
      item.result.citationList.map((c) => domainOf(c.url)).filter((d) => d !== null),
    );
    for (const d of domains) cell.citedDomains[d] = (cell.citedDomains[d] ?? 0) + 1;
  }
  cells.forEach((cell, i) => {
    cell.stability = stability(answers[i]!);
    cell.models = [...models[i]!].sort();
    const brand = cell.groups[0];
    cell.widthReached = brand ? width(wilson(brand.mentioned, cell.answered)) : null;
  });
  return cells;
}

/** One answer's discovered brands into its cell, each key once per answer. */
function addDiscovered(cell: CellSnapshot, entries: readonly DiscoveredEntry[]): void {
  const named = new Set<string>();
  for (const d of entries) {
    const key = brandKey(d.name);
    if (!key || named.has(key)) continue;
    named.add(key);
    let counts = cell.discovered!.find((c) => c.key === key);
    if (!counts)
      cell.discovered!.push((counts = { key, name: d.name, mentioned: 0, positions: [] }));
    counts.mentioned++;
    counts.positions.push(d.position);
  }
}
