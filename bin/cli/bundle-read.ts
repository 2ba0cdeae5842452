/**
 * Reads an evidence bundle (a tar) into what the verification needs: each
 * file's SHA-256 and size, hashed as it streams past, and the bytes of the
 * manifests and signatures only, so a large bundle is never held whole.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { extract } from 'tar-stream';
import { keepsBytes, type BundleEntry } from './bundle-verify.js';

export async function readBundle(file: string): Promise<Map<string, BundleEntry>> {
  const entries = new Map<string, BundleEntry>();
  const tar = extract();
  createReadStream(file).pipe(tar);
  for await (const entry of tar) {
    const hash = createHash('sha256');
    const kept: Buffer[] = [];
    let size = 0;
    for await (const chunk of entry as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
      if (keepsBytes(entry.header.name)) kept.push(chunk);
    }
    if (entry.header.type !== 'file') continue;
    entries.set(entry.header.name, {
      sha256: hash.digest('hex'),
      size,
      ...(keepsBytes(entry.header.name) && { bytes: Buffer.concat(kept) }),
    });
  }
  return entries;
}
