/**
 * The outer framing of Gemini's `StreamGenerate` response, read
 * incrementally: bytes in, cut anywhere (inside a length, a JSON string or a
 * UTF-8 character), batches of RPC envelopes out. Pure.
 *
 * The body opens with the `)]}'` guard, then chunks `<length>\n<json>\n`
 * whose length counts UTF-16 code units (JavaScript's `.length`) from the
 * newline after the digits, both newlines included; each chunk's JSON is a
 * list of envelopes such as `["wrb.fr", null, "<inner JSON>"]`
 * (HanaokaYuzu/Gemini-API `utils/parsing.py` `parse_stream_frames`). A line
 * that starts with `[` where a length should be is read as one unprefixed
 * chunk, as older batch responses and that project's NDJSON fallback do.
 * Anything else is not this format.
 */
import { unrecognisedFormat } from '../../../web/signals.js';

export const SITE = 'gemini';
const GUARD = ")]}'";

/** One chunk as it came (for the evidence) and its envelopes. */
export interface RpcChunk {
  text: string;
  envelopes: unknown[];
}

export class RpcFrames {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  private guardChecked = false;

  push(chunk: Uint8Array | string): RpcChunk[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.drain(false);
  }

  end(): RpcChunk[] {
    this.buffer += this.decoder.decode();
    return this.drain(true);
  }

  private drain(final: boolean): RpcChunk[] {
    const out: RpcChunk[] = [];
    if (!this.guardChecked) {
      const head = this.buffer.trimStart();
      if (head.length < GUARD.length && GUARD.startsWith(head) && !final) return out;
      if (head.startsWith(GUARD)) this.buffer = head.slice(GUARD.length);
      this.guardChecked = true;
    }
    for (;;) {
      const start = this.buffer.search(/\S/);
      if (start < 0) {
        this.buffer = '';
        return out;
      }
      const rest = this.buffer.slice(start);
      const length = /^(\d+)\n/.exec(rest);
      if (length) {
        const from = length[1]!.length;
        const units = Number(length[1]);
        if (rest.length < from + units) {
          if (final) throw unrecognisedFormat(SITE, `a chunk cut short (${units} units announced)`);
          this.buffer = rest;
          return out;
        }
        out.push(chunkOf(rest.slice(from, from + units)));
        this.buffer = rest.slice(from + units);
        continue;
      }
      if (/^\d+$/.test(rest) && !final) {
        this.buffer = rest; // the length's digits, the newline still to come
        return out;
      }
      if (rest.startsWith('[')) {
        const eol = rest.indexOf('\n');
        if (eol < 0 && !final) {
          this.buffer = rest;
          return out;
        }
        out.push(chunkOf(eol < 0 ? rest : rest.slice(0, eol)));
        this.buffer = eol < 0 ? '' : rest.slice(eol + 1);
        continue;
      }
      throw unrecognisedFormat(SITE, `neither a length nor a chunk: ${rest.slice(0, 80)}`);
    }
  }
}

function chunkOf(text: string): RpcChunk {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw unrecognisedFormat(SITE, `a chunk that is not JSON: ${text.trim().slice(0, 80)}`);
  }
  if (!Array.isArray(v))
    throw unrecognisedFormat(SITE, `a chunk that is not a list: ${text.trim().slice(0, 80)}`);
  return { text: text.trim(), envelopes: v };
}
