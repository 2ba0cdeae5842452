/**
 * Stream drift variants: changes a real site makes to its chat stream from
 * one month to the next (extra events before or after the end marker, a
 * renamed field, a newer format). A test selects one with
 * `#replica:<name>` in the prompt, like the common variants (site.ts); each
 * replica lists its own with what the driver must do: return the exact
 * answer (`answer`), fail within seconds with a named drift signal
 * (`drift`, an `unrecognised <site> stream format` error), or leave the
 * answer to the two witnesses (`witness`).
 */
export interface StreamVariant<Name extends string = string> {
  name: Name;
  /**
   * `witness`: the parser reports text it cannot place, the page renders the
   * whole answer, so the two witnesses disagree: the exact answer from the
   * page (`answerSource: 'dom'`) where the site's DOM reader is whole, else a
   * `format_drift` failure (crawler/web/witness.ts).
   */
  expect: 'answer' | 'drift' | 'witness';
  /** What the variant changes, for a failing test's message. */
  what: string;
}

/** The stream variant a prompt selects, if it names one of `variants`. */
export function streamVariantOf<Name extends string>(
  prompt: string,
  variants: readonly StreamVariant<Name>[],
): Name | undefined {
  for (const m of prompt.matchAll(/#replica:([a-z0-9_]+)/g)) {
    const hit = variants.find((v) => v.name === m[1]);
    if (hit) return hit.name;
  }
  return undefined;
}
