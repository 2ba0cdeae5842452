/**
 * Watching a brand, pure: a name added to a monitor's `monitorKeywords` as a
 * group of its own, so that the next run measures it like any group. A name
 * whose key (brand-name.ts brandKey: case, width, punctuation removed) is the
 * key of an alias the monitor watches already changes nothing: watching is
 * idempotent, and the group that watches it is named.
 */
import { brandKey } from '../shared/brand/brand-name.js';
import { keywordGroups } from '../shared/brand/groups.js';
import { parseKeywords } from '../shared/brand/keywords.js';
import { LIMITS } from '../shared/requests/submission.js';
import { AppError } from '../shared/errors.js';

/** The keys of every alias of the groups of `keywords` (a monitor's parsed monitorKeywords). */
export function watchedKeys(keywords: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const group of keywordGroups(keywords)) {
    for (const alias of group.aliases) {
      const key = brandKey(alias);
      if (key) keys.add(key);
    }
  }
  return keys;
}

export type Watching =
  | { added: true; keyword: string; monitorKeywords: string; keywords: string[] }
  | { added: false; keyword: string };

/**
 * The monitor's keywords with `name` watched. A name already watched names the
 * group that has it; one that would make `monitorKeywords` too long is a 400.
 */
export function watch(
  monitorKeywords: string,
  keywords: readonly string[],
  name: string,
): Watching {
  const key = brandKey(name);
  for (const group of keywordGroups(keywords)) {
    if (
      group.aliases.some(
        (alias) => alias.toLowerCase() === name.toLowerCase() || (key && brandKey(alias) === key),
      )
    ) {
      return { added: false, keyword: group.keyword };
    }
  }
  const next = `${monitorKeywords.trimEnd()}, ${name}`;
  if (next.length > LIMITS.keywordsChars) {
    throw AppError.invalid([
      {
        field: 'name',
        message: `watching it would make monitorKeywords longer than ${LIMITS.keywordsChars} characters`,
      },
    ]);
  }
  return { added: true, keyword: name, monitorKeywords: next, keywords: parseKeywords(next) };
}
