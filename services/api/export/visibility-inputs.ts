/**
 * What the XLSX "visibility" sheet needs of each sub task, kept compactly
 * while the sub tasks stream past (visibilityOf wants them all at the end):
 * a few small integers per sub task instead of its mentions and citations as
 * objects, about a fifth of the memory. Replayed as VisibilityInput objects
 * one at a time, so visibilityOf sees exactly what it would have seen.
 */
import type { KeywordGroup, Mention } from '../../shared/contracts/brand.js';
import { domainOf } from '../../shared/brand/domains.js';
import { countedMode, type VisibilityInput } from '../../shared/brand/visibility.js';
import type { Item } from './tables.js';

/** Numbers kept per group and sub task. */
const FIELDS = 4;

export class VisibilityInputs {
  /** Per sub task: [place, per group (count, position or 0, group rank or 0, inCitations), ...domain ids]. */
  private readonly rows: number[][] = [];
  /** The distinct (platform, channel, counted mode, status) of the sub tasks. */
  private readonly places: Pick<VisibilityInput, 'platform' | 'channel' | 'mode' | 'status'>[] = [];
  private readonly placeIds = new Map<string, number>();
  private readonly domains: string[] = [];
  private readonly domainIds = new Map<string, number>();

  constructor(private readonly groups: readonly KeywordGroup[]) {}

  add({ result, brand }: Item): void {
    const channel =
      result.channel === 'api' || result.channel === 'web' ? result.channel : undefined;
    const completed = result.status === 'completed';
    // Only completed sub tasks are counted, under the mode that ran; the
    // others only make their platform, channel and requested mode present.
    const status = completed ? 'completed' : 'other';
    const mode = countedMode(result);
    const placeKey = `${result.platform}\u0000${channel ?? ''}\u0000${mode}\u0000${status}`;
    let place = this.placeIds.get(placeKey);
    if (place === undefined) {
      place =
        this.places.push({
          platform: result.platform,
          ...(channel ? { channel } : {}),
          mode,
          status,
        }) - 1;
      this.placeIds.set(placeKey, place);
    }
    const row = [place];
    for (const g of this.groups) {
      const m = brand.mentions.find((x) => x.keyword === g.keyword);
      row.push(m?.count ?? 0, m?.position ?? 0, m?.groupRank ?? 0, m?.inCitations ? 1 : 0);
    }
    for (const c of result.citationList) {
      const domain = domainOf(c.url);
      if (domain === null) continue;
      let id = this.domainIds.get(domain);
      if (id === undefined) {
        id = this.domains.push(domain) - 1;
        this.domainIds.set(domain, id);
      }
      row.push(id);
    }
    this.rows.push(row);
  }

  *[Symbol.iterator](): Iterator<VisibilityInput> {
    const n = this.groups.length;
    for (const row of this.rows) {
      const place = this.places[row[0]!]!;
      const mentions: Mention[] = this.groups.map((g, i) => ({
        keyword: g.keyword,
        count: row[1 + FIELDS * i]!,
        firstIndex: null,
        position: row[2 + FIELDS * i]! || null,
        groupRank: row[3 + FIELDS * i]! || null,
        inReasoning: false,
        inReferences: false,
        inCitations: row[4 + FIELDS * i] === 1,
      }));
      const citationList = row.slice(1 + FIELDS * n).map((id, index) => ({
        index,
        url: `https://${this.domains[id]!}/`,
        title: '',
        site: '',
        icon: '',
      }));
      yield { ...place, mentions, citationList };
    }
  }
}
