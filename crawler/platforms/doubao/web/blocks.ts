/**
 * The 2026 format's content blocks, replayed into one answer. Every frame
 * carries blocks by `block_id`; a text block's `text_block.text` is a delta
 * appended to what that block already has (xln3/platform-v2
 * `doubao_adapter.py` `_assemble_final_message`; "增量片段，不是全量重发" in the
 * projects that learnt it the hard way), and `CHUNK_DELTA` text belongs to
 * the text block that streamed last. Block types (daijinma/geo_marketing
 * `doubao.go`, platform-v2): 10000 text, 10040 the deep-think root (text
 * blocks whose `parent_id` is its id are the reasoning), 10025
 * `search_query_result_block` with `text_card` and `video_card` results. Other
 * block types (tool status, timers, reading a page) carry nothing an answer
 * records, and the site adds new ones often: they are skipped, not refused.
 * A text block whose content holds text elsewhere than `text_block.text` (a
 * renamed content field) is not applied and said so (`unplaced`, for the
 * kit's witnesses), never a silently shorter answer; an empty one is skipped.
 *
 * Fields that arrive elsewhere (issue 22): a reasoning text block's own
 * summary in `text_block.summary`; a source's icon as `icon_url`; the
 * follow-up questions in `patch_object 50`'s `ext.sp_v2`, a cumulative JSON
 * string (each patch repeats the whole list so far, see `spV2`).
 */
import type { Media } from '../../../../services/shared/contracts/answer.js';
import { emptyRaw, type RawAnswer, type RawSearchResult } from '../../common/raw-answer.js';
import { textField } from '../../common/frame-content.js';
import { IgnoredFrames } from '../../common/ran-mode.js';

export const TEXT_BLOCK = 10000;
export const THINKING_BLOCK = 10040;
export const SEARCH_BLOCK = 10025;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;

interface TextBlock {
  parent: string;
  pieces: string[];
  summary: string;
}

/**
 * The follow-ups of one `ext.sp_v2` string: a JSON list of questions (strings
 * or `{content|text|query}`), or an object holding such a list. Cumulative and
 * streamed, so a string cut mid-way does not parse yet: undefined until it does.
 */
export function spV2(text: string): string[] | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const list = Array.isArray(v)
    ? v
    : isObj(v)
      ? [v.suggestions, v.suggests, v.list, v.questions].find(Array.isArray)
      : undefined;
  if (!list) return undefined;
  return list
    .map((q) => (isObj(q) ? str(q.content) || str(q.text) || str(q.query) : str(q)).trim())
    .filter(Boolean);
}

/** What a sources list, media and follow-ups gather, shared with the samantha format. */
export class Collected {
  readonly results: RawSearchResult[] = [];
  readonly videos: Media[] = [];
  readonly followUps: string[] = [];
  /** The latest whole list of `ext.sp_v2` (it repeats itself, so it replaces, never adds). */
  private spFollowUps: string[] = [];

  addResult(r: RawSearchResult): void {
    if (!r.url || this.results.some((x) => x.url === r.url)) return;
    this.results.push(r);
  }

  addVideo(m: Media): void {
    if (!this.videos.some((x) => x.url === m.url)) this.videos.push(m);
  }

  addFollowUp(q: string): void {
    const t = q.trim();
    if (t && !this.followUps.includes(t)) this.followUps.push(t);
  }

  /** One `patch_object 50` value: the message ext, whose `sp_v2` holds the follow-ups so far. */
  addExt(value: Obj): void {
    const ext = isObj(value.ext) ? value.ext : value;
    const list = typeof ext.sp_v2 === 'string' ? spV2(ext.sp_v2) : undefined;
    if (list) this.spFollowUps = list;
  }

  /** Every source shown is one the answer consulted: the 参考 N 篇资料 list is the cited list. */
  fill(raw: RawAnswer): RawAnswer {
    raw.searchResults = [...this.results];
    raw.citedIndices = this.results.map((r, i) => r.index ?? i + 1);
    raw.relatedQuestions = [...new Set([...this.followUps, ...this.spFollowUps])];
    return raw;
  }
}

export class BlockAnswer extends Collected {
  private readonly texts = new Map<string, TextBlock>();
  private readonly thinkingRoots = new Set<string>();
  private active: TextBlock | undefined;
  /** The search queries the site ran, in order (recorded in the evidence only). */
  readonly queries: string[] = [];
  /** Frames and blocks whose answer text no known field holds: not applied (common/frame-content.ts). */
  readonly unplaced = new IgnoredFrames();

  get deepThinkSeen(): boolean {
    return this.thinkingRoots.size > 0;
  }

  /** Reasoning text arrived (text under a deep-think root). */
  get thinkingText(): boolean {
    return [...this.texts.values()].some(
      (b) => this.thinkingRoots.has(b.parent) && b.pieces.join('').trim() !== '',
    );
  }

  /** One `content_block` entry (from a notify snapshot or a patch). */
  add(block: unknown): void {
    if (!isObj(block)) return;
    const id = str(block.block_id);
    const type = block.block_type;
    const content = isObj(block.content) ? block.content : {};
    const parent = str(block.parent_id);
    if (type === THINKING_BLOCK && id) this.thinkingRoots.add(id);
    else if (type === TEXT_BLOCK && id) this.addText(id, parent, content);
    else if (type === SEARCH_BLOCK) this.addSearch(content);
    this.addSuggestions(content);
  }

  /** `CHUNK_DELTA {text}`: more text for the block that streamed last. */
  delta(text: string): void {
    if (!text) return;
    if (!this.active) {
      this.active = { parent: '', pieces: [], summary: '' };
      this.texts.set(`delta-${this.texts.size}`, this.active);
    }
    this.active.pieces.push(text);
  }

  raw(): RawAnswer {
    const answer: string[] = [];
    const reasoning: string[] = [];
    const summaries: string[] = [];
    for (const b of this.texts.values()) {
      const text = b.pieces.join('');
      if (this.thinkingRoots.has(b.parent) && b.summary) summaries.push(b.summary);
      if (text.trim() === '') continue;
      if (this.thinkingRoots.has(b.parent)) reasoning.push(text.trim());
      else if (b.parent === '') answer.push(text.trim());
    }
    const raw = emptyRaw();
    raw.content = answer.join('\n\n');
    raw.reasoningContent = reasoning.join('\n\n');
    raw.reasoningSummary = summaries.join(' ');
    return this.fill(raw);
  }

  private addText(id: string, parent: string, content: Obj): void {
    const tb0 = isObj(content.text_block) ? content.text_block : undefined;
    // Text anywhere but text_block.text (its summary aside) is a renamed field: not applied.
    const elsewhere = tb0
      ? typeof tb0.text === 'string'
        ? undefined
        : textField(tb0, ['summary'])
      : textField(content);
    if (elsewhere) {
      this.unplaced.add(`a text block with text in "${tb0 ? 'text_block.' : ''}${elsewhere}"`);
      return;
    }
    let b = this.texts.get(id);
    if (!b) {
      b = { parent, pieces: [], summary: '' };
      this.texts.set(id, b);
    } else if (!b.parent && parent) b.parent = parent;
    const tb = isObj(content.text_block) ? content.text_block : {};
    const piece = str(tb.text);
    if (piece) b.pieces.push(piece);
    // The summary is the block's whole one so far, not a delta.
    if (str(tb.summary).trim()) b.summary = str(tb.summary).trim();
    this.active = b;
  }

  private addSearch(content: Obj): void {
    const block = isObj(content.search_query_result_block) ? content.search_query_result_block : {};
    for (const q of Array.isArray(block.queries) ? block.queries : []) {
      const text = typeof q === 'string' ? q : isObj(q) ? str(q.query) || str(q.text) : '';
      if (text && !this.queries.includes(text)) this.queries.push(text);
    }
    for (const r of Array.isArray(block.results) ? block.results : []) {
      if (!isObj(r)) continue;
      if (isObj(r.text_card)) this.addTextCard(r.text_card, num(r.index));
      if (isObj(r.video_card)) this.addVideoCard(r.video_card, num(r.index));
    }
  }

  private addTextCard(card: Obj, fallbackIndex: number | undefined): void {
    const url = str(card.url);
    if (!/^https?:\/\//.test(url)) return;
    this.addResult({
      index: num(card.index) ?? fallbackIndex,
      title: str(card.title),
      url,
      site: str(card.sitename),
      icon: str(card.icon) || str(card.icon_url) || str(card.logo_url),
    });
  }

  /** A video result is a source (its platform is the site) and media shown with the answer. */
  private addVideoCard(card: Obj, fallbackIndex: number | undefined): void {
    const url = str(card.url) || str(card.video_url);
    if (!/^https?:\/\//.test(url)) return;
    const title = str(card.title) || str(card.description);
    this.addResult({
      index: num(card.index) ?? fallbackIndex,
      title,
      url,
      site: str(card.platform),
      icon: str(card.icon) || str(card.icon_url) || str(card.logo_url),
    });
    const video: Media = { type: 'video', url };
    if (title) video.title = title;
    const cover = str(card.cover) || str(card.cover_url);
    if (cover) video.thumbnail = cover;
    this.addVideo(video);
  }

  /** Follow-up questions offered under the answer. */
  private addSuggestions(content: Obj): void {
    const block = isObj(content.suggest_block) ? content.suggest_block : undefined;
    if (!block) return;
    for (const q of Array.isArray(block.suggests) ? block.suggests : []) this.addFollowUp(str(q));
  }
}
