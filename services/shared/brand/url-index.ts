/**
 * URLs and their domains as small integers, for one visibility pass: each
 * distinct URL is parsed once (domainOf), and the pass and its insights
 * count by index into arrays instead of hashing the same strings again.
 */
import { domainOf } from './domains.js';

export class UrlIndex {
  private readonly urlIds = new Map<string, number>();
  private readonly domainIds = new Map<string, number>();
  /** Per URL id, its domain's id; -1 when the URL has no host. */
  readonly domainOfUrl: number[] = [];
  /** Per domain id, the domain (domains.ts's common form). */
  readonly domains: string[] = [];

  /** The id of `url`, given on first sight. */
  id(url: string): number {
    let id = this.urlIds.get(url);
    if (id !== undefined) return id;
    id = this.domainOfUrl.length;
    this.urlIds.set(url, id);
    const domain = domainOf(url);
    this.domainOfUrl.push(domain === null ? -1 : this.domainId(domain));
    return id;
  }

  /** The id of `domain` (domains.ts's common form), given on first sight. */
  domainId(domain: string): number {
    let d = this.domainIds.get(domain);
    if (d === undefined) {
      d = this.domains.push(domain) - 1;
      this.domainIds.set(domain, d);
    }
    return d;
  }
}
