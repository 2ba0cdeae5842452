/**
 * DashScope native generation output, pure. Streaming events look like
 * `id:1` / `event:result` / `:HTTP_STATUS/200` / `data:{output, usage,
 * request_id}`; with `incremental_output` each data holds only the new text.
 * There is no `[DONE]`: the last result has `finish_reason: "stop"`. A
 * mid-stream failure is `event:error` with a flat `{code, message}` body.
 * Sources are `output.search_info.search_results[]` (index, title, url,
 * site_name, icon), sent first with `prepend_search_result`.
 */
import { emptyRaw, type RawAnswer } from '../common/raw-answer.js';
import { arr, isObj, searchResultOf, str } from '../common/openai-stream.js';
import type { RawSearchResult } from '../common/raw-answer.js';
import type { VendorError } from '../common/errors.js';

export class DashScopeAccumulator {
  readonly raw: RawAnswer = emptyRaw();
  finishReason: string | undefined;
  error: VendorError | undefined;

  /** One event: its name (`result` / `error`) and its parsed data. */
  push(eventName: string, data: unknown): void {
    if (!isObj(data)) return;
    if (eventName === 'error' || (str(data.code) && !isObj(data.output))) {
      this.error = { status: 0, code: str(data.code) ?? 'error', message: str(data.message) };
      return;
    }
    const output = isObj(data.output) ? data.output : {};
    const choice = arr(output.choices).find(isObj);
    if (choice) {
      const message = isObj(choice.message) ? choice.message : {};
      this.raw.content += str(message.content) ?? '';
      this.raw.reasoningContent += str(message.reasoning_content) ?? '';
      const finish = str(choice.finish_reason);
      if (finish && finish !== 'null') this.finishReason = finish;
    } else {
      // result_format "text"
      this.raw.content += str(output.text) ?? '';
      const finish = str(output.finish_reason);
      if (finish && finish !== 'null') this.finishReason = finish;
    }
    const results = isObj(output.search_info) ? arr(output.search_info.search_results) : [];
    if (results.length > 0) {
      this.raw.searchResults = results
        .map((r, i) => searchResultOf(r, i))
        .filter((r): r is RawSearchResult => r !== undefined);
    }
  }
}
