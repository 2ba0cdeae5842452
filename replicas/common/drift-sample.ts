/**
 * Which drifts a replica composes, drawn the way a site's next release
 * changes several things at once (replicas/common/drift.ts):
 * - `drawDrifts(seed, from)`: one combination per seed, so a failure in CI
 *   is replayed by its seed alone (`DRIFT_SEED=<n>`, or
 *   `npm run replica -- <site> --drift-seed <n>` to look at it by hand);
 * - `pairwiseDrifts(from)`: the combinations `npm run test:drift` runs, in
 *   which every two drifts that can go together meet at least once. All
 *   2^n subsets are far too many; two changes meeting is where a driver built
 *   for each alone breaks (a hashed class on a control drawn as a checkbox).
 *
 * Drifts of one exclusive group are the same thing drawn, placed or moved
 * another way, so a site shows at most one of them. Pure: no I/O, no clock.
 */
import { driftsOf, type CallFrom, type Drift } from './drift.js';

/**
 * Drifts that take part of the answer out of the stream (the page still shows it all): the
 * answer then comes from the page where the site's reader is whole, else the sub task fails as
 * `format_drift`. Half the drawn combinations have none, so most runs demand the answer itself.
 */
export const STREAM_LOSS: readonly string[] = ['unknown_content_frame', 'renamed_fields'];

/** Drifts a replica can show at most one of at a time. */
const EXCLUSIVE: readonly (readonly string[])[] = [
  ['call_in_worker', 'call_in_page'],
  // The mode controls drawn one way (mode-drift.ts draws one widget kind in place of the page's own).
  ['other_widget', 'nameless_controls', 'checkbox_controls', 'menu_controls', 'model_name_picker'],
  ['chat_path_redirect', 'chat_path_moved'],
  STREAM_LOSS,
];

/** How likely a drift outside the exclusive groups is drawn into a combination. */
const DRAW_SHARE = 0.4;

/** Every drift a replica whose page makes its chat call `from` can show ('none' left out). */
export function driftsFor(from: CallFrom): Drift[] {
  return driftsOf(from).filter((d) => d !== 'none');
}

const groupOf = (d: string) => EXCLUSIVE.findIndex((g) => g.includes(d));

/** Whether two drifts can be shown by one replica at once. */
export function compatible(a: Drift, b: Drift): boolean {
  if (a === b) return false;
  const g = groupOf(a);
  return g < 0 || g !== groupOf(b);
}

/** mulberry32: a small, well-mixed 32-bit generator, the same sequence for the same seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * One combination for `seed`: from each exclusive group one drift or none,
 * each other drift with DRAW_SHARE; never fewer than two drifts.
 */
export function drawDrifts(seed: number, from: CallFrom): Drift[] {
  const all = driftsFor(from);
  const next = random(seed);
  for (;;) {
    const out: Drift[] = [];
    for (const group of EXCLUSIVE) {
      const members = all.filter((d) => group.includes(d));
      if (group === STREAM_LOSS && next() < 0.5) continue;
      const pick = Math.floor(next() * (members.length + (group === STREAM_LOSS ? 0 : 1)));
      if (pick < members.length) out.push(members[pick]!);
    }
    for (const d of all) if (groupOf(d) < 0 && next() < DRAW_SHARE) out.push(d);
    if (out.length >= 2) return all.filter((d) => out.includes(d));
  }
}

/** A site's own seed: the same run seed draws another combination on each site. */
const siteSeed = (seed: number, site: string) =>
  [...site].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16_777_619) >>> 0, seed >>> 0);

/** The combination `seed` draws for `site` (the site contract's, and the replica command's). */
export const drawSiteDrifts = (seed: number, site: string, from: CallFrom): Drift[] =>
  drawDrifts(siteSeed(seed, site), from);

/**
 * Combinations in which every compatible pair of drifts meets at least once
 * (greedy: each combination starts from the first pair not yet met and takes
 * every drift that can join it, those that meet the most new pairs first).
 * The pairs without a STREAM_LOSS drift are met first in combinations
 * without one, where every ask must answer; the rest after.
 */
export function pairwiseDrifts(from: CallFrom): Drift[][] {
  const all = driftsFor(from);
  const key = (a: Drift, b: Drift) => [a, b].sort().join('+');
  const unmet = new Set<string>();
  for (const [i, a] of all.entries())
    for (const b of all.slice(i + 1)) if (compatible(a, b)) unmet.add(key(a, b));
  const lossless = all.filter((d) => !STREAM_LOSS.includes(d));
  const combos: Drift[][] = [];
  for (const pool of [lossless, all])
    for (;;) {
      const first = [...unmet].find((k) => k.split('+').every((d) => pool.includes(d as Drift)));
      if (first === undefined) break;
      const combo = first.split('+') as Drift[];
      const gain = (d: Drift) => combo.filter((c) => unmet.has(key(c, d))).length;
      for (;;) {
        const fits = pool.filter((d) => !combo.includes(d) && combo.every((c) => compatible(c, d)));
        if (fits.length === 0) break;
        combo.push(fits.reduce((x, y) => (gain(y) > gain(x) ? y : x)));
      }
      for (const x of combo) for (const y of combo) if (x < y) unmet.delete(key(x, y));
      combos.push(all.filter((d) => combo.includes(d)));
    }
  return combos;
}

/**
 * Which sites show each single drift in a run of the site contract that does
 * not take every site through every drift (CI's): each drift on `each` sites
 * that can show it (or all that can), in a seeded order, each to the sites
 * dealt the fewest so far, ties broken by the seed: every site gets its share
 * and, over runs, meets every drift it can show.
 */
export function shareDrifts(
  seed: number,
  sites: readonly { name: string; callFrom: CallFrom }[],
  drifts: readonly Drift[],
  each: number,
): Map<string, Set<Drift>> {
  const next = random(seed);
  const shuffled = <T>(list: readonly T[]): T[] =>
    list
      .map((x) => ({ x, r: next() }))
      .sort((a, b) => a.r - b.r)
      .map(({ x }) => x);
  const dealt = new Map<string, Set<Drift>>(sites.map((s) => [s.name, new Set()]));
  for (const d of shuffled(drifts)) {
    const able = shuffled(sites.filter((s) => driftsOf(s.callFrom).includes(d)));
    able.sort((a, b) => dealt.get(a.name)!.size - dealt.get(b.name)!.size);
    for (const s of able.slice(0, each)) dealt.get(s.name)!.add(d);
  }
  return dealt;
}

/** `n` of the items, drawn by `seed` (the same for the same seed), in their own order. */
export function drawSome<T>(seed: number, items: readonly T[], n: number): T[] {
  const next = random(seed);
  const ranked = items.map((x, i) => ({ i, r: next() })).sort((a, b) => a.r - b.r);
  const chosen = new Set(ranked.slice(0, n).map(({ i }) => i));
  return items.filter((_, i) => chosen.has(i));
}
