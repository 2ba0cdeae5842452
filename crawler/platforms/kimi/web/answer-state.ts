/**
 * What a Kimi stream has said so far, in either format: the answer and
 * reasoning blocks in the order the site opened them, the search results,
 * follow-ups, a refusal, and whether the end marker came. `toRaw` turns it
 * into the vendor-neutral RawAnswer (crawler/platforms/common/raw-answer.ts).
 */
import { emptyRaw, type RawAnswer, type RawSearchResult } from '../../common/raw-answer.js';

interface Block {
  kind: 'text' | 'think';
  content: string;
}

/** Kimi's inline citation marks: `[^3^]` cites search result 3. */
export function kimiCitations(text: string): number[] {
  const seen: number[] = [];
  for (const m of text.matchAll(/\[\^(\d{1,3})\^\]/g)) {
    const n = Number(m[1]);
    if (n > 0 && !seen.includes(n)) seen.push(n);
  }
  return seen;
}

export class AnswerState {
  private readonly blocks = new Map<string, Block>();
  readonly results: RawSearchResult[] = [];
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

  addResult(result: RawSearchResult): void {
    if (result.url && !this.results.some((r) => r.url === result.url)) {
      this.results.push({ ...result, index: this.results.length + 1 });
    }
  }

  text(kind: Block['kind']): string {
    return [...this.blocks.values()]
      .filter((b) => b.kind === kind)
      .map((b) => b.content)
      .join('');
  }

  toRaw(): RawAnswer {
    const raw = emptyRaw();
    raw.content = this.text('text');
    raw.reasoningContent = this.text('think');
    raw.refusal = this.refusal;
    raw.searchResults = this.results.map((r) => ({ ...r }));
    raw.citedIndices = kimiCitations(raw.content);
    raw.relatedQuestions = [...this.suggestions];
    return raw;
  }
}
