/**
 * The monitors service's own collections: `monitors` (what to ask, when),
 * `monitorRuns` (each run, its tasks, and the figures of each finished region,
 * kept after the tasks are purged) and `monitorChanges` (what each finished
 * run changed against the one before).
 */
import { Schema, type Connection, type Model } from 'mongoose';
import type { ClaimFields } from '../shared/claim.js';
import { claims } from '../shared/claim.js';
import type { MonitorInput } from '../shared/requests/monitor.js';
import type { FollowUpDoc } from './rounds.js';
import type { Samples } from './figures/sampling.js';
import type { CellSnapshot } from './snapshot.js';
import type { RegionPools } from './trends/pooled.js';
import type { TaskStatus } from '../shared/contracts/status.js';
import type { Change } from '../shared/contracts/monitor-trends.js';
import type { CitationOpportunity, DiscoveredBrand } from '../shared/contracts/brand.js';

/** A run's insights over all its sub tasks (every region and round), kept when it finishes. */
export interface RunInsightsDoc {
  discovered: DiscoveredBrand[];
  opportunities: CitationOpportunity[];
}

export interface MonitorDoc extends MonitorInput {
  _id: string;
  userId: number;
  createdAt: number;
  updatedAt: number;
  /** The next scheduled slot (ms); the leader starts a run once it has passed. */
  nextDueAt: number;
}

export const RUN_STATUSES = ['starting', 'running', 'finished', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunRegionDoc {
  regionCode: string | null;
  /** Chosen when the run is created, so a resumed start resubmits nothing. */
  taskId: string;
  submitted: boolean;
  /** The task's final status once it has one; null until then or when it was refused. */
  taskStatus: TaskStatus | null;
  /** Why the task was refused at submission; null: it was not. */
  error: string | null;
  /** Adaptive sampling's further tasks, in rounds; the region settles when no cell wants more. */
  followUps: FollowUpDoc[];
  /** Folded from the region's own task and every follow-up round, once the last is final. */
  cells: CellSnapshot[] | null;
  /** The cells pre-pooled for trends (trends/pooled.ts), stored with them. */
  pools: RegionPools | null;
}

export interface RunDoc {
  _id: string;
  monitorId: string;
  userId: number;
  trigger: 'schedule' | 'manual';
  /** The scheduled slot (ms) or, run now, the request's time. */
  slot: number;
  /** One key per scheduled slot (unique): two nodes cannot both create a slot's run. */
  slotKey: string;
  status: RunStatus;
  /** What each region's task asks, fixed at creation: later edits of the monitor change later runs. */
  body: Record<string, unknown>;
  /** Samples per cell of each region's first task. */
  samples: number;
  /**
   * The monitor's setting when the run was created: the follow-up rule, the
   * calls-saved base and the cells' targetWidth (figures/sampling.ts targetWidthOf).
   */
  sampling: Samples;
  /** The tags of each prompt (by index) at creation: trends group by them. */
  promptTags: string[][];
  regions: RunRegionDoc[];
  createdAt: number;
  finishedAt: number | null;
  /** When its changes against the run before were detected (once); null: not yet. */
  changesDetectedAt: number | null;
  /** Kept when it finishes; absent or null: not (yet) kept, or a run stored before they were. */
  insights?: RunInsightsDoc | null;
  startToken: string | null;
  startHolder: string | null;
  startExpiresAt: number | null;
}

export const START_FIELDS = {
  token: 'startToken',
  holder: 'startHolder',
  expiresAt: 'startExpiresAt',
} as const satisfies ClaimFields;

/** The claim on submitting a run's tasks (its start, then each follow-up round): one node submits. */
export const startClaims = claims(START_FIELDS);

const monitorSchema = new Schema<MonitorDoc>(
  {
    _id: String,
    userId: { type: Number, required: true },
    name: String,
    prompts: [{ _id: false, text: String, tags: [String] }],
    platforms: [
      { _id: false, platform: String, channel: String, mode: String, screenshot: Number },
    ],
    regionCodes: [String],
    monitorKeywords: String,
    keywords: [String],
    samples: Schema.Types.Mixed,
    schedule: Schema.Types.Mixed,
    callbackUrl: { type: String, default: null },
    digest: Boolean,
    enabled: Boolean,
    createdAt: Number,
    updatedAt: Number,
    nextDueAt: Number,
  },
  { versionKey: false, collection: 'monitors' },
);
monitorSchema.index({ userId: 1, createdAt: -1 });
monitorSchema.index({ enabled: 1, nextDueAt: 1 });

const runSchema = new Schema<RunDoc>(
  {
    _id: String,
    monitorId: { type: String, required: true },
    userId: Number,
    trigger: String,
    slot: Number,
    slotKey: String,
    status: String,
    body: Schema.Types.Mixed,
    samples: Number,
    sampling: Schema.Types.Mixed,
    promptTags: [[String]],
    regions: [Schema.Types.Mixed],
    createdAt: Number,
    finishedAt: { type: Number, default: null },
    changesDetectedAt: { type: Number, default: null },
    insights: { type: Schema.Types.Mixed, default: null },
    startToken: { type: String, default: null },
    startHolder: { type: String, default: null },
    startExpiresAt: { type: Number, default: null },
  },
  { versionKey: false, collection: 'monitorRuns' },
);
runSchema.index({ slotKey: 1 }, { unique: true });
// Serves the runs list and the trends (a monitor's finished runs between two slots).
runSchema.index({ monitorId: 1, slot: -1 });
runSchema.index({ 'regions.taskId': 1 });
runSchema.index({ 'regions.followUps.taskId': 1 });
runSchema.index({ status: 1, startExpiresAt: 1 });
runSchema.index({ status: 1, changesDetectedAt: 1 });

/** `_id`: derived from the run and what changed, so detecting a run's changes again adds none. */
export type ChangeDoc = Omit<Change, 'id'> & { _id: string };

const changeSchema = new Schema<ChangeDoc>(
  {
    _id: String,
    monitorId: { type: String, required: true },
    runId: String,
    previousRunId: { type: String, default: null },
    slot: Number,
    detectedAt: Number,
    kind: String,
    scope: Schema.Types.Mixed,
    keyword: { type: String, default: null },
    domain: { type: String, default: null },
    before: { type: Number, default: null },
    after: { type: Number, default: null },
    detail: String,
  },
  { versionKey: false, collection: 'monitorChanges' },
);
changeSchema.index({ monitorId: 1, slot: -1 });

export interface MonitorModels {
  Monitor: Model<MonitorDoc>;
  Run: Model<RunDoc>;
  Change: Model<ChangeDoc>;
}

export function monitorModels(connection: Connection): MonitorModels {
  return {
    Monitor:
      (connection.models.Monitor as Model<MonitorDoc>) ??
      connection.model('Monitor', monitorSchema),
    Run:
      (connection.models.MonitorRun as Model<RunDoc>) ?? connection.model('MonitorRun', runSchema),
    Change:
      (connection.models.MonitorChange as Model<ChangeDoc>) ??
      connection.model('MonitorChange', changeSchema),
  };
}
