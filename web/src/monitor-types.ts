/**
 * The monitor routes' shapes as the dashboard reads them: the CRUD and runs
 * views from services/shared/contracts/monitors.ts, and the trends and changes
 * from services/shared/contracts/monitor-trends.ts (types only: no zod in the
 * bundle).
 */
import type { z } from 'zod';
import type { monitorListSchema, runListSchema } from '../../services/shared/contracts/monitors.js';
import type {
  changesSchema,
  GapSeries,
  TrendPoint,
  TrendSeries,
} from '../../services/shared/contracts/monitor-trends.js';

export type {
  MonitorView as Monitor,
  RunView as Run,
  WatchResult,
} from '../../services/shared/contracts/monitors.js';
export type {
  Change,
  ChangeKind,
  DiscoveredSeries,
  GapSeries,
  Rate,
  TrendGroupBy as GroupBy,
  TrendPoint,
  Trends,
} from '../../services/shared/contracts/monitor-trends.js';
export type MonitorPage = z.output<typeof monitorListSchema>;
export type RunPage = z.output<typeof runListSchema>;
export type Changes = z.output<typeof changesSchema>;
/** One group's and keyword's points, oldest first. */
export type Series = TrendSeries;
/** `prompt` of a GapSeries: the prompt's index in the monitor's prompts. */
export type GapPoint = GapSeries['points'][number];
/** Answers counted at each step of the funnel, out of `n`. */
export type Funnel = TrendPoint['funnel'];

/** The groupings the dashboard offers (the API has tag and mode too). */
export const GROUP_BYS = ['platform', 'region', 'channel'] as const;
