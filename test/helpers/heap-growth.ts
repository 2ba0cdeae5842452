/**
 * The live heap growth of this process while it downloads a file from the
 * embedded service (which runs in this process too), throwing the bytes away:
 * the heap is sampled after a forced collection, so only what stays
 * reachable counts. The memory tests of exports and evidence bundles use it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const SAMPLE_MS = 150;

/** Downloads `url` chunk by chunk (each to `onChunk`); the peak live heap growth and the size. */
export async function downloadHeapGrowth(
  url: string,
  token: string,
  onChunk: (chunk: Uint8Array, bytesBefore: number) => void = () => undefined,
): Promise<{ peak: number; bytes: number }> {
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  let sampler: NodeJS.Timeout | undefined;
  const sample = () => {
    const started = performance.now();
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    // Every 150 ms, but collections never take more than a quarter of the time: on a busy
    // machine each one is slower, and a fixed pace let them crowd out the download itself.
    return Math.max(SAMPLE_MS, 3 * (performance.now() - started));
  };
  const schedule = (wait: number) => {
    sampler = setTimeout(() => schedule(sample()), wait);
  };
  schedule(SAMPLE_MS);
  let bytes = 0;
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      onChunk(chunk, bytes);
      bytes += chunk.length;
    }
  } finally {
    clearTimeout(sampler);
  }
  sample();
  return { peak, bytes };
}

export const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
