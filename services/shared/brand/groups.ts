/**
 * Keyword groups: one `monitorKeywords` entry (already split by
 * services/shared/brand/keywords.ts) holds the aliases of one brand separated by `|`
 * (`Acme|阿克米|ACME Inc.|acme.com`).
 */
import type { KeywordGroup } from '../contracts/brand.js';
import { domainName } from './domains.js';

/**
 * The task's keyword entries as groups, in order. Aliases are trimmed; blank
 * ones are dropped, and so are repeats within a group (NFKC, case-insensitive:
 * the first spelling is kept); an entry without any alias is no group. The
 * first alias names the group. An alias that is a domain name (see
 * `domainName`) also goes into `domains`, in the common host form (lower-case,
 * without `www.`); it is still matched in text like any alias.
 */
export function keywordGroups(entries: readonly string[]): KeywordGroup[] {
  const groups: KeywordGroup[] = [];
  for (const entry of entries) {
    const aliases: string[] = [];
    const seen = new Set<string>();
    for (const part of entry.split('|')) {
      const alias = part.trim();
      const key = alias.normalize('NFKC').toLowerCase();
      if (!alias || seen.has(key)) continue;
      seen.add(key);
      aliases.push(alias);
    }
    if (!aliases.length) continue;
    const domains: string[] = [];
    for (const alias of aliases) {
      const domain = domainName(alias);
      if (domain && !domains.includes(domain)) domains.push(domain);
    }
    groups.push({ keyword: aliases[0]!, aliases, domains });
  }
  return groups;
}
