/**
 * Perplexity's `diff_block` patches applied to the block value they name:
 * JSON-Patch operations (`{op, path, value}`, RFC 6902 paths such as
 * `/chunks/3`, `/answer`, `/goals/0/description`, `/web_results/-`, the
 * empty path for the whole value). Each patch changes the value the earlier
 * ones left: the answer is the patched value, never the patches' values
 * concatenated. Pure: a new value comes back, the old one is untouched.
 */
export interface Patch {
  op: string;
  path: string;
  value?: unknown;
}

type Container = Record<string, unknown> | unknown[];
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/** The path's keys (`/a/0/b` → ['a', '0', 'b']), with JSON Pointer's `~1` and `~0` undone. */
function keysOf(path: string): string[] {
  if (path === '' || path === '/') return [];
  return path
    .replace(/^\//, '')
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const copy = (v: unknown): Container =>
  Array.isArray(v) ? [...(v as unknown[])] : { ...(v as Record<string, unknown>) };

/** Whether a patch is one this applier knows (the rest are drift for the caller). */
export function isPatch(v: unknown): v is Patch {
  if (!isContainer(v) || Array.isArray(v)) return false;
  const p = v as Record<string, unknown>;
  return typeof p.op === 'string' && typeof p.path === 'string';
}

/** `target` with `patch` applied; throws on an operation or path it cannot apply. */
export function applyPatch(target: unknown, patch: Patch): unknown {
  const keys = keysOf(patch.path);
  if (keys.length === 0) {
    if (patch.op === 'remove') return undefined;
    if (patch.op === 'add' || patch.op === 'replace') return patch.value;
    throw new Error(`patch op "${patch.op}" on the whole value`);
  }
  const root = isContainer(target) ? copy(target) : {};
  let at: Container = root;
  for (const [i, key] of keys.slice(0, -1).entries()) {
    const next = (at as Record<string, unknown>)[key];
    // A missing container is a list when the key below it indexes one.
    const made = isContainer(next) ? copy(next) : /^(?:\d+|-)$/.test(keys[i + 1]!) ? [] : {};
    (at as Record<string, unknown>)[key] = made;
    at = made;
  }
  const last = keys.at(-1)!;
  if (Array.isArray(at)) {
    const i = last === '-' ? at.length : Number(last);
    if (!Number.isInteger(i) || i < 0 || i > at.length)
      throw new Error(`patch path ${patch.path} is outside its list`);
    if (patch.op === 'add') at.splice(i, 0, patch.value);
    else if (patch.op === 'replace') at[i] = patch.value;
    else if (patch.op === 'remove') at.splice(i, 1);
    else throw new Error(`patch op "${patch.op}"`);
    return root;
  }
  if (patch.op === 'add' || patch.op === 'replace') at[last] = patch.value;
  else if (patch.op === 'remove') delete at[last];
  else throw new Error(`patch op "${patch.op}"`);
  return root;
}
