/**
 * The raw evidence of one web sub task: what the page sent and every frame
 * its stream carried, in arrival order, one JSON object per line. It answers
 * "which number is right?" disputes and is the replay material when a site
 * changes its format (record → fixture → parser). Stored gzip-compressed
 * (services/shared/evidence.ts) and served to the task's owner.
 */
import type { Evidence, EvidenceEntry } from '../platforms/types.js';

type WithoutTime<T> = T extends unknown ? Omit<T, 't'> : never;

export class EvidenceLog implements Evidence {
  private readonly entries: EvidenceEntry[] = [];
  private readonly start = Date.now();

  constructor(private readonly maxEntries = 50_000) {}

  add(entry: WithoutTime<EvidenceEntry>): void {
    if (this.entries.length >= this.maxEntries) return;
    this.entries.push({ t: Date.now() - this.start, ...entry } as EvidenceEntry);
  }

  /** A frame as received; bytes that are not UTF-8 text are kept as base64. */
  frame(data: string | Uint8Array): void {
    if (typeof data === 'string') this.add({ kind: 'frame', data });
    else
      this.add({ kind: 'frame', data: Buffer.from(data).toString('base64'), encoding: 'base64' });
  }

  note(text: string): void {
    this.add({ kind: 'note', text });
  }

  /** The answer's DOM snapshot (crawler/web/answer-dom.ts). */
  dom(selector: string, html: string, length: number): void {
    this.add({ kind: 'dom', selector, html, length });
  }

  get size(): number {
    return this.entries.length;
  }

  list(): readonly EvidenceEntry[] {
    return this.entries;
  }

  toNdjson(): string {
    return (
      this.entries.map((e) => JSON.stringify(e)).join('\n') + (this.entries.length ? '\n' : '')
    );
  }
}
