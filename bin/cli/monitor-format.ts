/**
 * Monitors, runs, trends and changes as text (pure). The trend and change
 * shapes are those of `GET …/monitors/{id}/trends` and `…/changes`.
 */
import type {
  MonitorView,
  RunView,
  WatchResult,
} from '../../services/shared/contracts/monitors.js';
import { platformLabel } from './summary.js';
import { clip, renderTable } from './table.js';

export interface Rate {
  value: number | null;
  lower: number | null;
  upper: number | null;
  n: number;
}

export interface TrendPoint {
  runId: string;
  slot: number;
  mentionRate: Rate;
  position: { mean: number; sd: number; n: number } | null;
  shareOfVoice: number | null;
  citationShare: number | null;
  stability: number | null;
  models: string[];
  modelChanged: boolean;
  samples: { cells: number; asked: number; meanPerCell: number };
}

export interface TrendsData {
  definitionsVersion: number;
  groupBy: string;
  from: number | null;
  to: number | null;
  /** The API–web gap per prompt: in the JSON output, not in the tables. */
  channelGap: unknown[];
  series: { group: string; keyword: string; points: TrendPoint[] }[];
  /** Absent from a service older than the discovered brands. */
  discovered?: DiscoveredSeries[];
}

export interface DiscoveredSeries {
  group: string;
  name: string;
  watched: boolean;
  answers: number;
  points: { slot: number; share: Rate; position: { mean: number } | null }[];
}

export interface Change {
  runId: string;
  slot: number;
  detectedAt: number;
  kind: string;
  scope: {
    level: string;
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

export interface ChangesData {
  definitionsVersion: number;
  changes: Change[];
}

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
const pct = (v: number | null) => (v === null ? '-' : `${(v * 100).toFixed(1)} %`);
const num = (v: number | null, digits = 2) => (v === null ? '-' : v.toFixed(digits));

export function samplesText(samples: MonitorView['samples']): string {
  return typeof samples === 'number'
    ? String(samples)
    : `${samples.min}–${samples.max} to width ${samples.targetWidth}`;
}

export function scheduleText(schedule: MonitorView['schedule']): string {
  return 'cron' in schedule
    ? `${schedule.cron} (${schedule.timezone})`
    : `every ${schedule.everyMinutes} min`;
}

export function monitorsText(list: {
  total: number;
  page: number;
  size: number;
  monitors: MonitorView[];
}): string {
  const pages = Math.max(1, Math.ceil(list.total / list.size));
  const rows = list.monitors.map((m) => [
    m.monitorId,
    clip(m.name, 30),
    m.enabled ? 'yes' : 'no',
    scheduleText(m.schedule),
    String(m.prompts.length),
    m.platforms.map((p) => `${platformLabel(p)} ${p.mode}`).join(', '),
    samplesText(m.samples),
    iso(m.nextDueAt),
  ]);
  return [
    renderTable(
      ['monitorId', 'name', 'enabled', 'schedule', 'prompts', 'platforms', 'samples', 'next run'],
      rows,
    ),
    `page ${list.page} of ${pages}, ${list.total} monitors`,
  ].join('\n');
}

export function monitorText(m: MonitorView): string {
  return [
    `${m.name} (${m.monitorId})`,
    `enabled: ${m.enabled ? 'yes' : 'no'}, next run: ${iso(m.nextDueAt)}`,
    `schedule: ${scheduleText(m.schedule)}`,
    `samples: ${samplesText(m.samples)}`,
    `keywords: ${m.monitorKeywords}`,
    `regions: ${m.regionCodes.length > 0 ? m.regionCodes.join(', ') : 'none'}`,
    `platforms: ${m.platforms.map((p) => `${platformLabel(p)} ${p.mode}`).join(', ')}`,
    `callback: ${m.callbackUrl ?? 'none'}`,
    'prompts:',
    ...m.prompts.map(
      (p, i) => `  ${i + 1}. ${p.text}${p.tags.length > 0 ? ` [${p.tags.join(', ')}]` : ''}`,
    ),
  ].join('\n');
}

/** A run: its regions' tasks, then per cell the samples taken and the monitored brand's rate. */
export function runText(run: RunView): string {
  const lines = [
    `run ${run.runId} (${run.trigger}, slot ${iso(run.slot)}): ${run.status}` +
      (run.samplesTaken === null
        ? ''
        : `, ${run.samplesTaken} samples taken, ${run.samplesSaved} saved`),
  ];
  for (const r of run.regions) {
    const rounds = r.followUps.length > 0 ? `, ${r.followUps.length} follow-up tasks` : '';
    lines.push(
      `region ${r.regionCode ?? '(none)'}: task ${r.taskId} ${r.taskStatus ?? (r.error ? `refused: ${r.error}` : 'running')}${rounds}`,
    );
    if (!r.cells) continue;
    const rows = r.cells.map((c) => {
      const rate = c.brands[0]?.mentionRate;
      return [
        clip(c.prompt, 40),
        `${c.platform} ${c.channel} ${c.mode}`,
        `${c.samplesTaken} (${c.answered} answered)`,
        rate ? rateText(rate) : '-',
        num(c.width),
        String(c.callsSaved),
      ];
    });
    const brand = r.cells[0]?.brands[0]?.keyword ?? 'brand';
    lines.push(
      renderTable(['prompt', 'platform', 'samples', `${brand} mentioned`, 'width', 'saved'], rows),
    );
  }
  return lines.join('\n');
}

function rateText(r: Rate): string {
  return r.value === null || r.n === 0
    ? 'n = 0'
    : `${pct(r.value)} [${pct(r.lower)}–${pct(r.upper)}] n=${r.n}`;
}

/** One table per series: the mention rate with its interval and the figures beside it per run. */
export function trendsText(trends: TrendsData): string {
  if (trends.series.length === 0 && !trends.discovered?.length) {
    return 'no finished runs in this range';
  }
  const blocks = trends.series.map((s) => {
    const rows = s.points.map((p) => [
      iso(p.slot),
      rateText(p.mentionRate),
      p.position ? `${p.position.mean.toFixed(1)} ± ${p.position.sd.toFixed(1)}` : '-',
      pct(p.shareOfVoice),
      pct(p.citationShare),
      num(p.stability),
      `${p.samples.asked} / ${p.samples.cells} cells`,
      `${p.models.join(', ') || '-'}${p.modelChanged ? ' (changed)' : ''}`,
    ]);
    return [
      `${trends.groupBy} ${s.group} · ${s.keyword}`,
      renderTable(
        [
          'run',
          'mention rate [95 %]',
          'position',
          'share of voice',
          'citation share',
          'stability',
          'samples',
          'model',
        ],
        rows,
      ),
    ].join('\n');
  });
  const discovered = trends.discovered?.length ? [discoveredText(trends)] : [];
  return [...blocks, ...discovered, `definitions version ${trends.definitionsVersion}`].join(
    '\n\n',
  );
}

/** The brands nobody watched: the latest share with its interval, where it came from, and whether it is watched now. */
function discoveredText(trends: TrendsData): string {
  const rows = (trends.discovered ?? []).map((s) => {
    const last = s.points.at(-1);
    const first = s.points[0];
    return [
      s.group,
      s.name,
      last ? rateText(last.share) : '-',
      first && last && s.points.length > 1
        ? `${pct(first.share.value)} → ${pct(last.share.value)}`
        : '-',
      last?.position ? last.position.mean.toFixed(1) : '-',
      s.watched ? 'yes' : 'no',
    ];
  });
  return [
    `discovered brands (recommended, not watched) by ${trends.groupBy}`,
    renderTable(
      ['group', 'brand', 'share [95 %] last run', 'first → last', 'position', 'watched'],
      rows,
    ),
  ].join('\n');
}

export function watchText(result: WatchResult): string {
  return result.added
    ? `now watching "${result.keyword}" in "${result.monitor.name}": the next run measures it (keywords: ${result.monitor.monitorKeywords})`
    : `"${result.monitor.name}" watches it already, as the group "${result.keyword}"`;
}

function scopeText(s: Change['scope']): string {
  const parts = [
    s.regionCode,
    s.platform && [s.platform, s.channel, s.mode].filter(Boolean).join(' '),
    s.prompt === null ? null : `prompt ${s.prompt + 1}`,
  ].filter((p): p is string => Boolean(p));
  return `${s.level}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}

export function changesText(data: ChangesData): string {
  if (data.changes.length === 0) return 'no changes larger than the noise';
  const rows = data.changes.map((c) => [
    iso(c.detectedAt),
    c.kind,
    scopeText(c.scope),
    c.keyword ?? c.domain ?? '-',
    `${num(c.before)} → ${num(c.after)}`,
    clip(c.detail, 50),
  ]);
  return [
    renderTable(['detected', 'kind', 'scope', 'brand / domain', 'before → after', 'detail'], rows),
    `${data.changes.length} changes, definitions version ${data.definitionsVersion}`,
  ].join('\n');
}
