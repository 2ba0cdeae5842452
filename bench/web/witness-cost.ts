/**
 * The two witnesses' cost per answer (crawler/web/witness.ts): the kit notes
 * in each attempt's raw evidence how long reading the rendered answer and
 * comparing it with the stream took (`witnesses compared in N ms`). Read back
 * here from the stored evidence (collection `evidence`, gzip NDJSON), as an
 * operator would read it, after the run.
 */
import { gunzipSync } from 'node:zlib';
import type mongoose from 'mongoose';

const NOTE = /^witnesses compared in ([\d.]+) ms \((\d+) page reads\)$/;

export interface WitnessCost {
  ms: number;
  /** Page reads: 1 when the page agreed at once, more when it was still drawing the last chunk. */
  reads: number;
}

/** The witness cost of every stored attempt since `since` (epoch ms). */
export async function witnessCosts(db: mongoose.Connection, since: number): Promise<WitnessCost[]> {
  const docs = await db
    .collection<{ gzip: Buffer | { buffer: Uint8Array; position: number }; createdAt: number }>(
      'evidence',
    )
    .find({ createdAt: { $gte: since } }, { projection: { gzip: 1 } })
    .toArray();
  const costs: WitnessCost[] = [];
  for (const d of docs) {
    // The driver hands back a BSON Binary: its bytes up to `position`.
    const packed = Buffer.isBuffer(d.gzip)
      ? d.gzip
      : Buffer.from(d.gzip.buffer.subarray(0, d.gzip.position));
    for (const line of gunzipSync(packed).toString('utf8').split('\n')) {
      if (!line.includes('witnesses compared')) continue;
      const m = NOTE.exec((JSON.parse(line) as { text?: string }).text ?? '');
      if (m) costs.push({ ms: Number(m[1]), reads: Number(m[2]) });
    }
  }
  return costs;
}
