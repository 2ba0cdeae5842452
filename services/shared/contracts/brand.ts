/**
 * Brand visibility (issue 14), as stored and served: the keyword groups of a
 * task's `monitorKeywords`, each sub task's mentions and sentiment, and the
 * task's visibility summary. Pure shapes; the logic is in services/shared/brand/.
 */
import type { Channel, Mode } from '../platforms/definition.js';

/**
 * One `monitorKeywords` entry: `Acme|阿克米|ACME Inc.|acme.com`. The first alias
 * names the group; aliases that are domains (`acme.com`) mark the group's own
 * sites and are matched in text like any alias.
 */
export interface KeywordGroup {
  keyword: string;
  /** Every alias, the naming one first, as written (trimmed). */
  aliases: string[];
  /** The aliases that are domain names, lower-cased (`acme.com`). */
  domains: string[];
}

export type Sentiment = 'positive' | 'neutral' | 'negative';

/** One group's mentions in one sub task's answer. */
export interface Mention {
  keyword: string;
  /** Mentions in `answerContent` (text only: not in Markdown syntax or link URLs). */
  count: number;
  /** Character offset of the first mention in `answerContent`; null when absent. */
  firstIndex: number | null;
  /**
   * The group's place among all the brands or products the answer recommends,
   * taken from the answer's own lists (1 = recommended first); null when absent.
   * Defined in services/shared/brand/recommended.ts.
   */
  position: number | null;
  /** Among the task's groups only: 1 = the first group named in the answer, 2 = the next …; null when absent. */
  groupRank: number | null;
  inReasoning: boolean;
  /** A reference's title, url or site names the group. */
  inReferences: boolean;
  /** A cited source's title, url or site names the group. */
  inCitations: boolean;
}

/** The judge's verdict on one mentioned group (ANALYSIS_PLATFORM). */
export interface SentimentVerdict {
  keyword: string;
  sentiment: Sentiment;
  /** One line. */
  reason: string;
}

/** What a completed sub task gets when it is recorded (every channel). */
export interface SubTaskBrandFields {
  /** One entry per group, in the task's group order; [] without keywords. */
  mentions: Mention[];
  /** Any group mentioned in the answer. */
  mentioned: boolean;
  /** Per mentioned group; null without a judge (or before it answered). */
  sentiment: SentimentVerdict[] | null;
}

/**
 * One group on one platform (and channel, when the task has both channels of
 * it; and mode, when it has that channel in more than one mode).
 */
export interface VisibilityRow {
  keyword: string;
  platform: string;
  /** Present only when the task holds this platform on both channels. */
  channel?: Channel;
  /**
   * The mode that really ran (a completed sub task's effectiveMode; the
   * requested one for the others). Present only when the task holds this
   * platform's channel in more than one mode.
   */
  mode?: Mode;
  /** Completed sub tasks counted (the denominators below). */
  answers: number;
  /** Share of answers that mention the group (0..1). */
  mentionRate: number;
  /** Mean `position` over the answers that mention it; null when none does. */
  averagePosition: number | null;
  bestPosition: number | null;
  /** Share of answers where the group is recommended first (position 1). */
  top1Share: number;
  /** Share of answers where the group is among the first three recommended (position ≤ 3). */
  top3Share: number;
  /** Mean `groupRank` over the answers that mention it; null when none does. */
  averageGroupRank: number | null;
  bestGroupRank: number | null;
  /** This group's mentions / all groups' mentions on this platform (0 when none). */
  shareOfVoice: number;
  /** Share of answers where a cited source names the group. */
  citationShare: number;
}

/**
 * `owned`: a domain of the first group (the team's own brand is named first);
 * `competitor`: a domain of another group; `other`: none of theirs. A domain
 * matches a declared one when equal or a subdomain of it (`www.acme.com`).
 */
export type DomainTag = 'owned' | 'competitor' | 'other';

export interface CitedDomain {
  domain: string;
  /** Citations of this domain on the platform. */
  count: number;
  tag: DomainTag;
  /** The group whose domain it is (owned or competitor); absent for `other`. */
  keyword?: string;
}

export interface PlatformDomains {
  platform: string;
  /** As in VisibilityRow. */
  channel?: Channel;
  /** As in VisibilityRow. */
  mode?: Mode;
  /** The most cited domains, most first (ties by name), at most 20. */
  top: CitedDomain[];
}

/** `visibility` of the full result, and `GET …/task/{taskId}/visibility`. */
export interface Visibility {
  /** The groups' naming keywords, in order. */
  keywords: string[];
  /** The groups themselves, in the same order: what a client needs to find mentions as the service does. */
  groups: KeywordGroup[];
  rows: VisibilityRow[];
  domains: PlatformDomains[];
  /** The brands the answers recommend that no group watches, most named first (at most 50). */
  discovered: DiscoveredBrand[];
  /** Cited domains where competitors are named and the first group is not, most such answers first (at most 30). */
  opportunities: CitationOpportunity[];
}

/**
 * A brand or product one answer recommends that matches none of the task's
 * groups (services/shared/brand/discovered.ts), stored with the answer.
 */
export interface DiscoveredEntry {
  /** As first written, Markdown removed. */
  name: string;
  /** Its place among all the brands or products the answer recommends (1 = first). */
  position: number;
}

/** One place (as in VisibilityRow) where a discovered brand is recommended. */
export interface DiscoveredPlace {
  platform: string;
  channel?: Channel;
  mode?: Mode;
  /** The place's answers that name the brand. */
  answers: number;
  /** Those answers / the place's answers (0..1). */
  share: number;
}

/**
 * A brand or product the answers recommend that no group watches, over a
 * task or a monitor run (services/shared/brand/insights.ts).
 */
export interface DiscoveredBrand {
  /** As most often written (Markdown removed); names merge by brandKey. */
  name: string;
  /** Completed answers that name it. */
  answers: number;
  /** Those answers / all completed answers (0..1). */
  share: number;
  /** Mean and best place among all the brands each of those answers recommends (1 = first). */
  averagePosition: number;
  bestPosition: number;
  places: DiscoveredPlace[];
  /** One sub task that names it: the one placing it best (ties: the lowest id). */
  example: { subTaskId: string; platform: string; prompt: string };
}

/** A page of a domain, as an answer lists it. */
export interface SourcePage {
  url: string;
  title: string;
}

/**
 * A domain cited in answers that name a competitor (a watched group other
 * than the first, or a discovered brand) and not the user's first group: where
 * the team is missing from the sources that shape the answer.
 */
export interface CitationOpportunity {
  domain: string;
  /** Whose domain it is, as in CitedDomain. */
  tag: DomainTag;
  keyword?: string;
  /** Answers naming a competitor and not the first group that cite the domain (the rank). */
  answers: number;
  /** Answers naming the first group that cite it, for contrast. */
  userAnswers: number;
  /** Answers naming a competitor and not the first group that retrieved a page of it without citing it. */
  retrievedAnswers: number;
  /** The competitors those answers name (groups' keywords, discovered names), most named first, at most 10. */
  competitors: string[];
  /** The cited pages, most cited first, at most 10. */
  pages: SourcePage[];
  /** Pages of the domain retrieved and not cited in those answers (where the platform separates them), at most 10. */
  retrieved: SourcePage[];
  /** The prompts of those answers, most frequent first, at most 10. */
  prompts: string[];
  /** Where those answers come from, as in VisibilityRow. */
  places: { platform: string; channel?: Channel; mode?: Mode }[];
}
