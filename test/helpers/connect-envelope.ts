/** One Connect streaming envelope: a flags byte, the big-endian length, the JSON message. */
export function connectEnvelope(msg: unknown, flags = 0): Uint8Array {
  const json = Buffer.from(JSON.stringify(msg));
  const head = Buffer.alloc(5);
  head.writeUInt8(flags, 0);
  head.writeUInt32BE(json.length, 1);
  return new Uint8Array(Buffer.concat([head, json]));
}
