/**
 * The rows of an export, pure: the sub tasks table (one row per sub task, six
 * columns per keyword group), the references table (one row per reference)
 * and the visibility tables. CSV and XLSX share them, so they cannot drift.
 */
import type { KeywordGroup, Visibility } from '../../shared/contracts/brand.js';
import type { ExportItem } from '../../shared/contracts/export.js';
import type { Reference } from '../../shared/contracts/answer.js';
import { domainOf, tagDomain } from '../../shared/brand/domains.js';
import type { subTaskResult } from '../../shared/task-views.js';
import type { Cell } from './csv.js';

/** A sub task as the full result shows it (screenshot URL absolute, raw evidence linked). */
export type SubTaskView = ReturnType<typeof subTaskResult> & { rawEvidence?: string | null };
export type Item = ExportItem<SubTaskView>;

const MENTION_COLUMNS = [
  'count',
  'position',
  'group rank',
  'first index',
  'in citations',
  'sentiment',
] as const;

export function subTaskHeader(groups: readonly KeywordGroup[]): string[] {
  return [
    'task name',
    'subTaskId',
    'prompt',
    'platform',
    'channel',
    'mode',
    'effectiveMode',
    'status',
    ...groups.flatMap((g) => MENTION_COLUMNS.map((c) => `${g.keyword} ${c}`)),
    'mentioned',
    'reference count',
    'citation count',
    'answer',
    'screenshot URL',
    'error message',
  ];
}

/** `taskName`: the task's name (null: none), on every row so each row stands alone when filtered. */
export function subTaskRow(
  item: Item,
  groups: readonly KeywordGroup[],
  taskName: string | null,
): Cell[] {
  const s = item.result;
  const mentionCells = groups.flatMap((g) => {
    const m = item.brand.mentions.find((x) => x.keyword === g.keyword);
    const verdict = item.brand.sentiment?.find((v) => v.keyword === g.keyword);
    return [
      m?.count ?? 0,
      m?.position ?? null,
      m?.groupRank ?? null,
      m?.firstIndex ?? null,
      m?.inCitations ?? false,
      verdict?.sentiment ?? null,
    ];
  });
  return [
    taskName,
    s.subTaskId,
    s.prompt,
    s.platform,
    s.channel,
    s.mode,
    s.effectiveMode,
    s.status,
    ...mentionCells,
    item.brand.mentioned,
    s.referenceList.length,
    s.citationList.length,
    s.answerContent,
    s.pageScreenshot,
    s.errorMessage,
  ];
}

export const REFERENCE_HEADER = [
  'subTaskId',
  'platform',
  'channel',
  'index',
  'cited',
  'title',
  'url',
  'site',
  'domain',
  'domain tag',
];

/** One row per reference of the sub task; cited = in its citationList (same index or url). */
export function referenceRows(item: Item, groups: readonly KeywordGroup[]): Cell[][] {
  const s = item.result;
  return s.referenceList.map((ref) => {
    const domain = domainOf(ref.url);
    return [
      s.subTaskId,
      s.platform,
      s.channel,
      ref.index,
      isCited(ref, s.citationList),
      ref.title,
      ref.url,
      ref.site,
      domain,
      domain === null ? null : tagDomain(domain, groups).tag,
    ];
  });
}

function isCited(ref: Reference, citations: readonly Reference[]): boolean {
  return citations.some((c) => c.index === ref.index || (ref.url !== '' && c.url === ref.url));
}

/** The references table in NDJSON: the same rows as objects named by the header. */
export function referenceRecords(item: Item, groups: readonly KeywordGroup[]) {
  return referenceRows(item, groups).map((row) =>
    Object.fromEntries(REFERENCE_HEADER.map((name, i) => [name, row[i]])),
  );
}

export const VISIBILITY_HEADER = [
  'keyword',
  'platform',
  'channel',
  'mode',
  'answers',
  'mention rate',
  'average position',
  'best position',
  'top-1 share',
  'top-3 share',
  'average group rank',
  'best group rank',
  'share of voice',
  'citation share',
];

export const DOMAIN_HEADER = ['platform', 'channel', 'mode', 'domain', 'count', 'tag', 'keyword'];

/** The visibility sheet: the group × platform rows, a blank row, then the cited domains. */
export function visibilityRows(v: Visibility): Cell[][] {
  return [
    VISIBILITY_HEADER,
    ...v.rows.map((r) => [
      r.keyword,
      r.platform,
      r.channel ?? null,
      r.mode ?? null,
      r.answers,
      r.mentionRate,
      r.averagePosition,
      r.bestPosition,
      r.top1Share,
      r.top3Share,
      r.averageGroupRank,
      r.bestGroupRank,
      r.shareOfVoice,
      r.citationShare,
    ]),
    [],
    DOMAIN_HEADER,
    ...v.domains.flatMap((p) =>
      p.top.map((d) => [
        p.platform,
        p.channel ?? null,
        p.mode ?? null,
        d.domain,
        d.count,
        d.tag,
        d.keyword ?? null,
      ]),
    ),
  ];
}
