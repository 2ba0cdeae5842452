/**
 * Anthropic Messages streaming, pure: named SSE events (`message_start`,
 * `content_block_start/delta/stop`, `message_delta`, `message_stop`; `ping`
 * anywhere; `error` mid-stream) in, a RawAnswer out. With search on, the
 * answer is many small text blocks joined in order; a cited sentence is its
 * own block whose `citations` (`web_search_result_location`) name the URLs;
 * `web_search_tool_result` blocks hold the full source lists. The model that
 * answered is `message_start`'s `message.model`.
 */
import { addCitedUrl, emptyRaw, type RawAnswer } from '../common/raw-answer.js';
import { arr, isObj, str } from '../common/openai-stream.js';
import type { VendorError } from '../common/errors.js';

type Obj = Record<string, unknown>;

export class MessagesAccumulator {
  readonly raw: RawAnswer = emptyRaw();
  stopReason: string | undefined;
  finished = false;
  error: VendorError | undefined;
  private readonly kinds = new Map<number, string>();
  private thoughts: string[] = [];

  push(event: unknown): void {
    if (!isObj(event)) return;
    switch (str(event.type)) {
      case 'content_block_start':
        if (isObj(event.content_block)) this.start(Number(event.index), event.content_block);
        break;
      case 'content_block_delta':
        if (isObj(event.delta)) this.delta(Number(event.index), event.delta);
        break;
      case 'message_delta':
        if (isObj(event.delta) && str(event.delta.stop_reason))
          this.stopReason = event.delta.stop_reason as string;
        break;
      case 'message_start':
        if (isObj(event.message)) this.raw.model = str(event.message.model) ?? '';
        break;
      case 'message_stop':
        this.finished = true;
        break;
      case 'error': {
        const e = isObj(event.error) ? event.error : {};
        this.error = { status: 0, code: str(e.type) ?? 'error', message: str(e.message) };
        this.finished = true;
        break;
      }
      default:
        break; // content_block_stop, ping
    }
  }

  /** A whole (non-streaming) message. */
  absorb(message: Obj): void {
    arr(message.content).forEach((block, i) => {
      if (!isObj(block)) return;
      this.start(i, block);
      if (block.type === 'text') this.raw.content += str(block.text) ?? '';
      if (block.type === 'thinking') this.thoughts[i] = str(block.thinking) ?? '';
    });
    this.stopReason = str(message.stop_reason);
    this.raw.model = str(message.model) ?? '';
    this.finished = true;
  }

  /** The reasoning: thinking blocks in order, separated by blank lines. */
  get reasoning(): string {
    return this.thoughts.filter((t) => t && t.trim() !== '').join('\n\n');
  }

  private start(index: number, block: Obj): void {
    const type = str(block.type) ?? '';
    this.kinds.set(index, type);
    if (type === 'thinking') this.thoughts[index] = str(block.thinking) ?? '';
    if (type === 'text') {
      // Blocks can open with text and citations already in them.
      this.raw.content += str(block.text) ?? '';
      for (const c of arr(block.citations)) this.citation(c);
    }
    if (type === 'web_search_tool_result') {
      // A failed search has an error object here instead of a list.
      for (const r of arr(block.content)) {
        if (!isObj(r) || r.type !== 'web_search_result' || !str(r.url)) continue;
        if (this.raw.searchResults.some((s) => s.url === r.url)) continue;
        this.raw.searchResults.push({
          index: this.raw.searchResults.length + 1,
          title: str(r.title) ?? '',
          url: r.url as string,
        });
      }
    }
  }

  private delta(index: number, d: Obj): void {
    switch (str(d.type)) {
      case 'text_delta':
        this.raw.content += str(d.text) ?? '';
        break;
      case 'thinking_delta':
        this.thoughts[index] = (this.thoughts[index] ?? '') + (str(d.thinking) ?? '');
        break;
      case 'citations_delta':
        this.citation(d.citation);
        break;
      default:
        break; // signature_delta, input_json_delta (the search query)
    }
  }

  private citation(c: unknown): void {
    if (isObj(c) && str(c.url)) addCitedUrl(this.raw, c.url as string, str(c.title));
  }
}
