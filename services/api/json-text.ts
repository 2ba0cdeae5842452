/**
 * Request bodies as strict JSON text, pure. Node's `buf.toString('utf8')` and
 * `JSON.parse` both replace what is not Unicode with U+FFFD or keep lone
 * surrogates, so a broken client would store text nobody sent. Here invalid
 * UTF-8 and lone surrogates (`"\ud800"`) are refused, naming the field.
 */
import { randomUUID } from 'node:crypto';
import type { FieldProblem } from '../shared/errors.js';
import { fieldName } from '../shared/validation.js';

/** Enough to point a client at its bug without an answer the size of the body. */
const MAX_LISTED = 50;

/** In a `u` regex a surrogate pair is one code point, so only lone halves match. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export type Parsed = { ok: true; value: unknown } | { ok: false; errors: FieldProblem[] };

export function parseJsonBody(raw: Uint8Array): Parsed {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return { ok: false, errors: [invalidUtf8(raw)] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      errors: [{ field: 'body', message: `malformed JSON: ${(err as Error).message}` }],
    };
  }
  const errors: FieldProblem[] = [];
  for (const s of strings(value)) {
    if (!LONE_SURROGATE.test(s.text)) continue;
    errors.push({
      field: fieldName(pathOf(s.at)),
      message: s.isKey
        ? 'has a property name with a lone surrogate (not valid Unicode)'
        : 'contains a lone surrogate (not valid Unicode)',
    });
    if (errors.length === MAX_LISTED) break;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}

/**
 * Names the field that holds the first invalid sequence: the bytes before it
 * are decoded, a marker stands in for it, and the field whose string carries
 * the marker is the one. Outside any string the body is not JSON anyway.
 */
function invalidUtf8(raw: Uint8Array): FieldProblem {
  // A streaming decode holds back a sequence still open at the cut, so the
  // text stops exactly where the invalid sequence starts.
  const head = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(
    raw.subarray(0, failingPrefixLength(raw) - 1),
    { stream: true },
  );
  const at = Buffer.byteLength(head);
  const message = `is not valid UTF-8 (byte ${at})`;
  const marker = `\uE000${randomUUID()}\uE000`;
  const tail = new TextDecoder('utf-8').decode(raw.subarray(at));
  let value: unknown;
  try {
    value = JSON.parse(head.replace(/^\uFEFF/, '') + marker + tail);
  } catch {
    return { field: 'body', message };
  }
  for (const s of strings(value)) {
    if (s.text.includes(marker)) return { field: fieldName(pathOf(s.at)), message };
  }
  return { field: 'body', message };
}

/**
 * The shortest prefix that a streaming decoder refuses. It accepts a prefix
 * exactly when no invalid sequence is complete inside it (one cut at the end
 * waits for more), so refused prefixes are all those from some length on. A
 * body whose only fault is a sequence cut by its end gives its whole length.
 */
function failingPrefixLength(raw: Uint8Array): number {
  let good = 0;
  let bad = raw.length;
  while (bad - good > 1) {
    const mid = (good + bad) >>> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(raw.subarray(0, mid), { stream: true });
      good = mid;
    } catch {
      bad = mid;
    }
  }
  return bad;
}

interface Found {
  at: Step | undefined;
  text: string;
  isKey: boolean;
}

/** Paths as parent links: copying them per level would be quadratic in the depth. */
interface Step {
  parent: Step | undefined;
  key: string | number;
}

function pathOf(step: Step | undefined): (string | number)[] {
  const path: (string | number)[] = [];
  for (let s = step; s; s = s.parent) path.push(s.key);
  return path.reverse();
}

/** Every string of a JSON value, keys included, without recursion (bodies nest deep). */
function* strings(root: unknown): Generator<Found> {
  const stack: [unknown, Step | undefined][] = [[root, undefined]];
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'string') {
      yield { at, text: value, isKey: false };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], { parent: at, key: i }]);
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push([(value as Record<string, unknown>)[key], { parent: at, key }]);
      }
      for (const key of keys) yield { at, text: key, isKey: true };
    }
  }
}
