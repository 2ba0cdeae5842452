/**
 * One sub task's mentions: per group, how often and where the answer names
 * it, its position among everything the answer recommends, its rank among
 * the groups, and whether the reasoning, the references or
 * the cited sources name it.
 */
import type { Answer, Reference } from '../contracts/answer.js';
import type { DiscoveredEntry, KeywordGroup, Mention } from '../contracts/brand.js';
import { domainOf, isWithin } from './domains.js';
import { compileGroups, foldText, matchFolded, type CompiledGroups } from './matcher.js';
import { discoveredIn } from './discovered.js';
import { insightDigest, type InsightDigest } from './insight-digest.js';
import { entryLists, positionsOf, type MentionAt } from './recommended.js';

/** Groups that `text` (plain text) names, by index. */
function namedIn(compiled: CompiledGroups, text: string | undefined, into: Set<number>): void {
  if (text) matchFolded(compiled, foldText(text, false), (group) => into.add(group));
}

/**
 * Groups that a host names: a domain of the group equals the host or the
 * host is its subdomain, or an alias (folded) equals one of the host's
 * dot-separated labels or a run of adjacent labels (`acme` and `acme.co`
 * name `www.acme.co.uk`; `acme` does not name `acme-cloud.com` or
 * `notacme.com`).
 */
function namedByHost(
  compiled: CompiledGroups,
  groups: readonly KeywordGroup[],
  host: string,
  into: Set<number>,
): void {
  groups.forEach((g, i) => {
    if (g.domains.some((d) => isWithin(host, d))) into.add(i);
  });
  const labels = host.split('.');
  for (let a = 0; a < labels.length; a++) {
    let run = '';
    for (let b = a; b < labels.length; b++) {
      run = b === a ? labels[a]! : `${run}.${labels[b]}`;
      for (const group of compiled.aliasGroups.get(run) ?? []) into.add(group);
    }
  }
}

function namedByReferences(
  compiled: CompiledGroups,
  groups: readonly KeywordGroup[],
  references: readonly Reference[] | null | undefined,
): Set<number> {
  const named = new Set<number>();
  for (const r of references ?? []) {
    namedIn(compiled, r.title, named);
    namedIn(compiled, r.site, named);
    const host = r.url ? domainOf(r.url) : null;
    if (host) namedByHost(compiled, groups, host, named);
  }
  return named;
}

/**
 * The brand fields of one answer: one Mention per group, in group order.
 * `count` and `firstIndex` are over `answerContent` read as Markdown
 * (matcher.ts); `groupRank` orders the mentioned groups by their first
 * mention (ranges never overlap, so there are no ties); `position` is the
 * place among all the brands the answer recommends (recommended.ts). The reasoning (summary and
 * content), titles and sites are read as plain text.
 */
export function brandFields(
  groups: readonly KeywordGroup[],
  answer: Pick<Answer, 'answerContent' | 'referenceList' | 'citationList' | 'reasoningProcess'>,
): { mentions: Mention[]; mentioned: boolean } {
  if (!groups.length) return { mentions: [], mentioned: false };
  return readBrands(groups, answer).fields;
}

/**
 * What is stored with an answer: its brand fields, its discovered brands
 * (discovered.ts), the answer's lists read once for both, and the digest the
 * insights sum (insight-digest.ts).
 */
export function answerBrandFields(
  groups: readonly KeywordGroup[],
  answer: Pick<Answer, 'answerContent' | 'referenceList' | 'citationList' | 'reasoningProcess'>,
): {
  mentions: Mention[];
  mentioned: boolean;
  discovered: DiscoveredEntry[];
  insightDigest: InsightDigest;
} {
  const content = answer.answerContent ?? '';
  const lists = entryLists(content);
  const { fields, found } = groups.length
    ? readBrands(groups, answer, lists)
    : { fields: { mentions: [], mentioned: false }, found: [] };
  const discovered = discoveredIn(content, found, lists);
  return {
    ...fields,
    discovered,
    insightDigest: insightDigest({ ...answer, mentions: fields.mentions, discovered }),
  };
}

function readBrands(
  groups: readonly KeywordGroup[],
  answer: Pick<Answer, 'answerContent' | 'referenceList' | 'citationList' | 'reasoningProcess'>,
  lists?: ReturnType<typeof entryLists>,
): { fields: { mentions: Mention[]; mentioned: boolean }; found: MentionAt[] } {
  const compiled = compileGroups(groups);
  const counts = new Array<number>(groups.length).fill(0);
  const firsts = new Array<number | null>(groups.length).fill(null);
  const order: number[] = [];
  const found: MentionAt[] = [];
  if (answer.answerContent) {
    matchFolded(compiled, foldText(answer.answerContent, true), (group, start, end) => {
      found.push({ group, start, end });
      const count = (counts[group] ?? 0) + 1;
      counts[group] = count;
      if (count === 1) {
        firsts[group] = start;
        order.push(group);
      }
    });
  }
  const positions = positionsOf(groups.length, answer.answerContent ?? '', found, lists);
  const inReasoning = new Set<number>();
  namedIn(compiled, answer.reasoningProcess?.summary, inReasoning);
  namedIn(compiled, answer.reasoningProcess?.content, inReasoning);
  const inReferences = namedByReferences(compiled, groups, answer.referenceList);
  const inCitations = namedByReferences(compiled, groups, answer.citationList);
  const mentions = groups.map((g, i): Mention => ({
    keyword: g.keyword,
    count: counts[i]!,
    firstIndex: firsts[i]!,
    position: positions[i]!,
    groupRank: counts[i] ? order.indexOf(i) + 1 : null,
    inReasoning: inReasoning.has(i),
    inReferences: inReferences.has(i),
    inCitations: inCitations.has(i),
  }));
  return { fields: { mentions, mentioned: order.length > 0 }, found };
}
