/**
 * Answer stability: the mean pairwise similarity of a cell's sampled answers,
 * 1 when every sample says the same words, 0 when no two share one. The
 * similarity of two answers is the Jaccard index of their word sets
 * (|A ∩ B| / |A ∪ B|). Words come from Intl.Segmenter (ICU word boundaries,
 * which split Chinese text into words too), lower-cased; punctuation and spaces
 * are not words. Order and repetition are ignored on purpose: the figure asks
 * "does the assistant say the same things", cheaply (O(k^2) set comparisons for
 * k ≤ 20 samples).
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

export function wordSet(text: string): Set<string> {
  const words = new Set<string>();
  for (const s of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (s.isWordLike) words.add(s.segment);
  }
  return words;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  // Two empty answers say the same nothing.
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const w of small) if (large.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Mean Jaccard over all pairs of answers; null with fewer than two answers. */
export function stability(answers: readonly string[]): number | null {
  if (answers.length < 2) return null;
  const sets = answers.map(wordSet);
  let total = 0;
  let pairs = 0;
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      total += jaccard(sets[i]!, sets[j]!);
      pairs++;
    }
  }
  return total / pairs;
}
