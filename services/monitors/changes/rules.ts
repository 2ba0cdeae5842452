/**
 * The change rules between two pools of the same scope in consecutive runs
 * (one cell, or one platform's cells), pure. Each counts only when it is
 * larger than the noise (docs/monitors.md, "Changes"):
 * - a keyword group gained or lost: the two Wilson 95 % intervals do not
 *   overlap, or the pooled two-proportion z-test is significant at 95 %;
 * - position moved: the mean place moved by 2 or more;
 * - a cited domain added or removed: established on one side (cited by at
 *   least half the answers, and by at least 2) and cited by none on the other,
 *   so one stray citation never flaps;
 * - a competitor (a keyword group after the first) appeared: from no answer
 *   naming it to at least one (it then carries no brand_gained).
 */
import type { Change, ChangeKind, ChangeScope } from '../../shared/contracts/monitor-trends.js';
import { twoProportionTest } from '../figures/two-proportion.js';
import { disjoint, wilson } from '../figures/wilson.js';
import { positionOf, type Pool } from '../trends/pool.js';

/** A change before it is stored against its run. */
export type ChangeDraft = Pick<
  Change,
  'kind' | 'scope' | 'keyword' | 'domain' | 'before' | 'after' | 'detail'
>;

export const POSITION_STEP = 2;
/** A domain is established in a pool when cited by this share of its answers … */
export const DOMAIN_SHARE = 0.5;
/** … and by at least this many answers. */
export const DOMAIN_MIN_ANSWERS = 2;

const round = (x: number) => Math.round(x * 1000) / 1000;

function draft(
  kind: ChangeKind,
  scope: ChangeScope,
  fields: Partial<ChangeDraft> & { detail: string },
): ChangeDraft {
  return { kind, scope, keyword: null, domain: null, before: null, after: null, ...fields };
}

function brandChanges(before: Pool, after: Pool, scope: ChangeScope): ChangeDraft[] {
  const out: ChangeDraft[] = [];
  [...after.brands].forEach(([keyword, now], index) => {
    const was = before.brands.get(keyword);
    if (!was || before.answered === 0 || after.answered === 0) return;
    const a = wilson(was.mentioned, before.answered);
    const b = wilson(now.mentioned, after.answered);
    const counts = `${now.mentioned}/${after.answered} answers, was ${was.mentioned}/${before.answered}`;
    const fields = { keyword, before: round(a.value), after: round(b.value) };
    if (index > 0 && was.mentioned === 0 && now.mentioned > 0) {
      out.push(draft('competitor_appeared', scope, { ...fields, detail: `named in ${counts}` }));
    } else {
      const apart = disjoint(a, b);
      const test = twoProportionTest(was.mentioned, before.answered, now.mentioned, after.answered);
      if (apart || test.significant) {
        const why = apart
          ? 'the Wilson 95 % intervals do not overlap'
          : `two-proportion z = ${test.z.toFixed(2)}`;
        const kind = b.value > a.value ? 'brand_gained' : 'brand_lost';
        out.push(draft(kind, scope, { ...fields, detail: `named in ${counts} (${why})` }));
      }
    }
    const p = positionOf(was);
    const q = positionOf(now);
    if (p && q && Math.abs(q.mean - p.mean) >= POSITION_STEP) {
      out.push(
        draft('position_moved', scope, {
          keyword,
          before: round(p.mean),
          after: round(q.mean),
          detail: `mean place ${round(q.mean)} over ${q.n} answers, was ${round(p.mean)} over ${p.n}`,
        }),
      );
    }
  });
  return out;
}

function established(pool: Pool, count: number): boolean {
  return count >= DOMAIN_MIN_ANSWERS && count >= DOMAIN_SHARE * pool.answered;
}

function domainChanges(before: Pool, after: Pool, scope: ChangeScope): ChangeDraft[] {
  if (before.answered === 0 || after.answered === 0) return [];
  const out: ChangeDraft[] = [];
  const share = (pool: Pool, domain: string) =>
    round((pool.domains.get(domain) ?? 0) / pool.answered);
  for (const [domain, count] of after.domains) {
    if (established(after, count) && !before.domains.has(domain)) {
      out.push(
        draft('domain_added', scope, {
          domain,
          before: 0,
          after: share(after, domain),
          detail: `cited by ${count}/${after.answered} answers, by none of ${before.answered} before`,
        }),
      );
    }
  }
  for (const [domain, count] of before.domains) {
    if (established(before, count) && !after.domains.has(domain)) {
      out.push(
        draft('domain_removed', scope, {
          domain,
          before: share(before, domain),
          after: 0,
          detail: `cited by none of ${after.answered} answers, by ${count}/${before.answered} before`,
        }),
      );
    }
  }
  return out;
}

/** Every change between two pools of one scope. */
export function compare(before: Pool, after: Pool, scope: ChangeScope): ChangeDraft[] {
  return [...brandChanges(before, after, scope), ...domainChanges(before, after, scope)];
}
