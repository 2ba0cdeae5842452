/**
 * The monitor routes' shapes as the dashboard reads them: the CRUD and runs
 * views from services/shared/contracts/monitors.ts, and the trends and changes
 * data as the shared contract writes them (issue 23, items 4 to 6).
 */
import type { z } from 'zod';
import type { monitorListSchema, runListSchema } from '../../services/shared/contracts/monitors.js';

export type {
  MonitorView as Monitor,
  RunView as Run,
} from '../../services/shared/contracts/monitors.js';
export type MonitorPage = z.output<typeof monitorListSchema>;
export type RunPage = z.output<typeof runListSchema>;

/** A share with its Wilson 95 % interval; value and bounds null when n is 0. */
export interface Rate {
  value: number | null;
  lower: number | null;
  upper: number | null;
  n: number;
}

export const GROUP_BYS = ['platform', 'region', 'channel'] as const;
export type GroupBy = (typeof GROUP_BYS)[number] | 'tag' | 'mode';

/** Answers counted at each step of the funnel, out of `n`. */
export interface Funnel {
  n: number;
  inReasoning: number;
  inReferences: number;
  inCitations: number;
  inAnswer: number;
  consideredButDropped: Rate;
}

export interface TrendPoint {
  runId: string;
  slot: number;
  finishedAt: number | null;
  mentionRate: Rate;
  position: { mean: number; sd: number; n: number } | null;
  shareOfVoice: number | null;
  citationShare: number | null;
  topDomains: { domain: string; count: number }[];
  stability: number | null;
  funnel: Funnel;
  models: string[];
  modelChanged: boolean;
  samples: { cells: number; asked: number; meanPerCell: number };
}

export interface Series {
  group: string;
  keyword: string;
  points: TrendPoint[];
}

export interface GapPoint {
  runId: string;
  slot: number;
  api: Rate;
  web: Rate;
  gap: { value: number | null; lower: number | null; upper: number | null };
}

/** `prompt`: the prompt's index in the monitor's prompts. */
export interface GapSeries {
  prompt: number;
  platform: string;
  keyword: string;
  points: GapPoint[];
}

export interface Trends {
  definitionsVersion: number;
  groupBy: GroupBy;
  from: number | null;
  to: number | null;
  series: Series[];
  channelGap: GapSeries[];
}

export const CHANGE_KINDS = [
  'brand_gained',
  'brand_lost',
  'position_moved',
  'domain_added',
  'domain_removed',
  'competitor_appeared',
  'drift',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface Change {
  id: string;
  monitorId: string;
  runId: string;
  previousRunId: string | null;
  slot: number;
  detectedAt: number;
  kind: ChangeKind;
  scope: {
    level: 'cell' | 'group';
    regionCode: string | null;
    platform: string | null;
    channel: string | null;
    mode: string | null;
    prompt: number | null;
  };
  keyword: string | null;
  domain: string | null;
  before: number | null;
  after: number | null;
  detail: string;
}

export interface Changes {
  definitionsVersion: number;
  changes: Change[];
}
