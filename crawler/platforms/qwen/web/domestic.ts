/**
 * The domestic site's older frames (`tongyi-legacy`: `POST
 * /dialog/conversation`, LLM-Red-Team/qwen-free-api `src/api/controllers/
 * chat.ts`): each frame is a snapshot of the whole reply, `{sessionId, msgId,
 * msgStatus: "generating" | "finished", contentType, contents: [{role,
 * contentType, content}], canShare, errorCode}`, every content item
 * cumulative, so the parser keeps the last snapshot and never concatenates
 * frames. `msgStatus: "finished"` ends the reply; `canShare: false` on it is
 * the site's content filter (a refusal); a non-empty `errorCode` is the
 * site's error. Items of `contentType` `text` are the answer (verified);
 * `think` (reasoning) and `referenceLink` (a JSON `{links: [{title, url,
 * source}]}`, the sources) are **[inferred]**. Pure.
 */
import { unrecognisedFormat } from '../../../web/signals.js';
import { textField } from '../../common/frame-content.js';
import { SITE, siteError } from './envelope.js';
import { isObj, sourcesOf, str } from './sources.js';
import { FORMATS, type QwenState } from './state.js';

type Obj = Record<string, unknown>;

/** Whether a frame is the domestic site's. */
export const isDomesticFrame = (f: Obj): boolean => 'msgStatus' in f || Array.isArray(f.contents);

function linksOf(content: string): unknown[] {
  try {
    const v = JSON.parse(content) as unknown;
    return isObj(v) && Array.isArray(v.links) ? v.links : [];
  } catch {
    throw unrecognisedFormat(
      SITE,
      `a referenceLink item that is not JSON: ${content.slice(0, 80)}`,
    );
  }
}

export function applyDomestic(s: QwenState, f: Obj): void {
  s.recognise(FORMATS.domestic);
  if (str(f.errorCode)) throw siteError(str(f.errorCode), str(f.errorMsg));
  if (!Array.isArray(f.contents)) {
    s.ignored.add('a frame without contents');
    return;
  }
  let text = '';
  let thinking = '';
  let sources: unknown[] | undefined;
  for (const item of f.contents) {
    if (!isObj(item) || (item.role !== undefined && item.role !== 'assistant')) continue;
    const type = str(item.contentType);
    const content = item.content;
    if (typeof content !== 'string') {
      const field = textField(item, ['contentType', 'role', 'id']);
      if (field) s.unplaced.add(`a ${type} item with text in "${field}"`);
      else s.ignored.add(`a ${type} item without content`);
      continue;
    }
    if (type === 'text') text += content;
    else if (type === 'think') thinking += content;
    else if (type === 'referenceLink') sources = [...(sources ?? []), ...linksOf(content)];
    else if (content.trim() !== '') s.unplaced.add(`contentType "${type}" with text`);
    else s.ignored.add(`contentType "${type}" without content`);
  }
  // The last snapshot is the reply: each replaces the one before.
  s.text = text;
  s.thinking = thinking;
  if (sources) s.sources = sourcesOf(sources);
  if (f.msgStatus === 'finished') {
    s.finished = true;
    if (f.canShare === false) {
      s.refusal = text || 'the reply was stopped by the content filter';
      s.text = '';
    }
  }
}
