/**
 * What a Kimi stream has said so far, in either format: the answer and
 * reasoning blocks in the order the site opened them, the search results,
 * follow-ups, a refusal, and whether the end marker came. `toRaw` turns it
 * into the vendor-neutral RawAnswer (crawler/platforms/common/raw-answer.ts).
 */
import { emptyRaw, type RawAnswer, type RawSearchResult } from '../../common/raw-answer.js';
import { IgnoredFrames, unplacedOf, type StreamReport } from '../../common/ran-mode.js';
import { citationsOf } from './citations.js';

interface Block {
  kind: 'text' | 'think';
  content: string;
}

export class AnswerState {
  private readonly blocks = new Map<string, Block>();
  readonly results: RawSearchResult[] = [];
  /** Reference numbers by search call (`web_search:1`), in the order the call found them. */
  private readonly byCall = new Map<string, number[]>();
  /** Reference numbers the stream itself marked as cited (`usedSearchChunks`). */
  private readonly cited: number[] = [];
  private readonly ignored = new IgnoredFrames();
  private readonly unplacedFrames = new IgnoredFrames();
  suggestions: string[] = [];
  refusal = '';
  /** The stream's own end marker arrived (Connect `done`, legacy `all_done`). */
  done = false;

  /** Sets (replaces) or appends to a block's content; a new id opens a block. */
  write(id: string, kind: Block['kind'], content: string, op: 'set' | 'append'): void {
    const block = this.blocks.get(id);
    if (!block) this.blocks.set(id, { kind, content });
    else block.content = op === 'set' ? content : block.content + content;
  }

  /**
   * A search result, numbered as the site numbered it (`refIndex`) or in
   * arrival order; returns its number. A page already listed keeps its first
   * number, and is still counted under the search call that found it again.
   */
  addResult(result: RawSearchResult, call = ''): number | undefined {
    if (!result.url) return undefined;
    let at = this.results.find((r) => r.url === result.url)?.index;
    if (at === undefined) {
      at =
        result.index !== undefined && !this.results.some((r) => r.index === result.index)
          ? result.index
          : Math.max(0, ...this.results.map((r) => r.index ?? 0)) + 1;
      this.results.push({ ...result, index: at });
    }
    if (call) {
      const list = this.byCall.get(call) ?? [];
      if (!list.includes(at)) list.push(at);
      this.byCall.set(call, list);
    }
    return at;
  }

  cite(at: number): void {
    if (!this.cited.includes(at)) this.cited.push(at);
  }

  /** A frame no known format names, kept in the evidence and not applied. */
  ignore(what: string): void {
    this.ignored.add(what);
  }

  /** A frame whose answer text no known field holds: not applied, and reported (frame-content.ts). */
  unplaced(what: string): void {
    this.unplacedFrames.add(what);
  }

  text(kind: Block['kind']): string {
    return [...this.blocks.values()]
      .filter((b) => b.kind === kind)
      .map((b) => b.content)
      .join('');
  }

  report(): StreamReport {
    return {
      thinking: this.text('think').trim() !== '',
      search: this.results.length > 0,
      ignored: this.ignored.list(),
      ...unplacedOf(this.unplacedFrames),
    };
  }

  toRaw(): RawAnswer {
    const raw = emptyRaw();
    const { text, cited } = citationsOf(
      this.text('text'),
      (call, k) => this.byCall.get(call)?.[k - 1],
    );
    raw.content = text;
    raw.reasoningContent = this.text('think');
    raw.refusal = this.refusal;
    raw.searchResults = this.results.map((r) => ({ ...r }));
    raw.citedIndices = [...new Set([...cited, ...this.cited])];
    raw.relatedQuestions = [...this.suggestions];
    return raw;
  }
}
