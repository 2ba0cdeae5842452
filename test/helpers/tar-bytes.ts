/**
 * Where each file's bytes sit in a ustar archive (512-byte headers, data
 * padded to 512), so a test can flip one byte of one file and nothing else.
 */
export function tarFileOffsets(tar: Buffer): Map<string, { start: number; size: number }> {
  const files = new Map<string, { start: number; size: number }>();
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const prefix = header.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('ascii').trim() || '0', 8);
    files.set(prefix ? `${prefix}/${name}` : name, { start: at + 512, size });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** A copy of the archive with one byte of `file` changed at `index` within its data. */
export function flipByte(tar: Buffer, file: string, index = 0): Buffer {
  const where = tarFileOffsets(tar).get(file);
  if (!where || index >= where.size) throw new Error(`${file} has no byte ${index}`);
  const copy = Buffer.from(tar);
  copy[where.start + index]! ^= 0x01;
  return copy;
}
