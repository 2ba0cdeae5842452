/**
 * Connect streaming envelopes (connectrpc.com/docs/protocol, "Streaming
 * response"): each message is one flag byte, a 4-byte big-endian length and
 * that many bytes of payload. Flag bit 0x02 marks the end-of-stream message
 * (JSON: an optional `error` and `metadata`); bit 0x01 a compressed payload.
 * Pure: bytes in, whole envelopes out, cut anywhere.
 */

export const END_STREAM = 0x02;
export const COMPRESSED = 0x01;

export interface Envelope {
  flags: number;
  payload: Uint8Array;
  /** The envelope as received (prefix + payload): what the evidence keeps. */
  bytes: Uint8Array;
}

/** The largest payload we accept: a corrupt length must not make us buffer forever. */
const MAX_PAYLOAD = 16 << 20;

export class EnvelopeReader {
  private buffer = new Uint8Array(0);

  /** Feeds bytes; returns the envelopes they completed. Throws on an impossible length. */
  push(chunk: Uint8Array): Envelope[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    const out: Envelope[] = [];
    let at = 0;
    while (joined.length - at >= 5) {
      const view = new DataView(joined.buffer, joined.byteOffset + at, 5);
      const length = view.getUint32(1);
      if (length > MAX_PAYLOAD) throw new Error(`envelope length ${length} is beyond any frame`);
      if (joined.length - at < 5 + length) break;
      const bytes = joined.slice(at, at + 5 + length);
      out.push({ flags: bytes[0]!, payload: bytes.subarray(5), bytes });
      at += 5 + length;
    }
    this.buffer = joined.slice(at);
    return out;
  }

  /** Bytes of an envelope that never completed. */
  get pending(): number {
    return this.buffer.length;
  }
}
