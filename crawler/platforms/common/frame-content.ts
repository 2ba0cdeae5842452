/**
 * Whether a frame carries answer content, whatever it is called: the rule
 * every site's frame reader applies to what it cannot place.
 * - A frame with no content field (a sentinel such as Yuanbao's bare
 *   `{"type":"text"}`, a heartbeat, an empty delta, a known type with no
 *   payload) carries nothing: it is kept in the evidence and skipped.
 * - A frame the reader does not know (or a known one whose content field was
 *   renamed) that holds text under a text-like key carries content the reader
 *   cannot place: it is reported as not applied (`StreamReport.unplaced`),
 *   never quietly skipped, and the kit's two witnesses decide
 *   (crawler/web/witness.ts). Pure.
 */

/** Keys under which the sites put text: `text`, `content`, `msg`, `delta`, DeepSeek's `v` … */
const TEXT_KEY =
  /^(?:v|value|text|txt|content|contents|msg|message|messages|delta|deltas|answer|markdown|md|reply|chunk|data|body)$|(?:^|[_-])(?:text|content|msg|message|delta|markdown|answer)$/i;
/** How deep a frame is searched (Doubao's `delta_ops[].text` is two levels down). */
const MAX_DEPTH = 4;

/**
 * The path of the first non-blank string held under a text-like key
 * (`delta_ops.0.text`), or undefined when the frame carries none. `skip`
 * names top-level keys that are the frame's own bookkeeping (`type`, `event`).
 */
export function textField(
  value: unknown,
  skip: readonly string[] = [],
  path = '',
  depth = 0,
): string | undefined {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return undefined;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  for (const [key, v] of entries) {
    if (depth === 0 && skip.includes(key)) continue;
    const at = path ? `${path}.${key}` : key;
    const keyed = Array.isArray(value)
      ? TEXT_KEY.test(path.split('.').pop() ?? '')
      : TEXT_KEY.test(key);
    if (typeof v === 'string' && keyed && v.trim() !== '') return at;
    const inner = textField(v, [], at, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}
