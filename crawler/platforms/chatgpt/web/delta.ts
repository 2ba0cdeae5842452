/**
 * ChatGPT's "v1" delta encoding (the request's `supported_encodings:
 * ["v1"]`; the stream opens with `event: delta_encoding` / `"v1"`): each
 * `delta` frame is one operation `{p, o, v}` on the envelope
 * `{message, conversation_id}` the stream is building, `p` a JSON-pointer
 * path into it, `o` one of
 * - `add`: set the value at the path (at `""`: a new envelope, the next
 *   message of the stream);
 * - `append`: add to the string (or list) at the path;
 * - `replace`: set the value at the path;
 * - `truncate`: cut the string (or list) at the path to `v` items;
 * - `remove`: delete the value at the path;
 * - `patch`: `v` is a list of operations, applied in order.
 * A frame that leaves out `p` or `o` continues the last frame's path and
 * operation (a run of appends to `/message/content/parts/0` then carries
 * only `v`). Sources: xtekky/gpt4free `g4f/Provider/needs_auth/OpenaiChat.py`
 * and 2026 captures (../shared/web-channel.md "ChatGPT, 2025–2026");
 * `truncate` and `remove` are **[inferred]** from the same family of
 * operations. Pure.
 */
type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export interface DeltaOp {
  p: string;
  o: string;
  v: unknown;
}

export const OPERATIONS = new Set(['add', 'append', 'replace', 'truncate', 'remove', 'patch']);

/** A path's keys: `/message/content/parts/0` → message, content, parts, 0. */
function keysOf(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`a path that is not a JSON pointer: ${path}`);
  return path
    .slice(1)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The container a path's last key sits in, made on the way where it is missing. */
function parentOf(root: Obj, keys: string[]): Obj | unknown[] {
  let at: Obj | unknown[] = root;
  for (const [i, k] of keys.slice(0, -1).entries()) {
    const next: unknown = Array.isArray(at) ? at[Number(k)] : at[k];
    if (typeof next === 'object' && next !== null) {
      at = next as Obj | unknown[];
      continue;
    }
    const made: Obj | unknown[] = /^\d+$/.test(keys[i + 1]!) ? [] : {};
    if (Array.isArray(at)) at[Number(k)] = made;
    else at[k] = made;
    at = made;
  }
  return at;
}

const read = (c: Obj | unknown[], k: string): unknown => (Array.isArray(c) ? c[Number(k)] : c[k]);
function write(c: Obj | unknown[], k: string, v: unknown): void {
  if (Array.isArray(c)) {
    if (k === '-') c.push(v);
    else c[Number(k)] = v;
  } else c[k] = v;
}

/**
 * Applies one operation to the envelope; returns the envelope after it (a
 * new one for an `add` at the root). Throws on an operation it does not know
 * or a value of the wrong kind, for the parser to name as format drift.
 */
export function applyOp(root: Obj, op: DeltaOp): Obj {
  if (op.o === 'patch') {
    if (!Array.isArray(op.v)) throw new Error('a patch whose value is not a list');
    let out = root;
    for (const sub of op.v) {
      if (!isObj(sub) || typeof sub.p !== 'string' || typeof sub.o !== 'string')
        throw new Error('a patch item without its path and operation');
      out = applyOp(out, { p: sub.p, o: sub.o, v: sub.v });
    }
    return out;
  }
  if (!OPERATIONS.has(op.o)) throw new Error(`an operation "${op.o}"`);
  const keys = keysOf(op.p);
  if (keys.length === 0) {
    if (op.o === 'add' || op.o === 'replace') {
      if (!isObj(op.v)) throw new Error(`an ${op.o} at the root whose value is not an object`);
      return structuredClone(op.v);
    }
    throw new Error(`an ${op.o} at the root`);
  }
  const parent = parentOf(root, keys);
  const key = keys.at(-1)!;
  const now = read(parent, key);
  switch (op.o) {
    case 'add':
    case 'replace':
      write(parent, key, structuredClone(op.v));
      break;
    case 'append':
      if (Array.isArray(now)) now.push(...(Array.isArray(op.v) ? op.v : [op.v]));
      else if (typeof op.v === 'string' && (typeof now === 'string' || now === undefined))
        write(parent, key, (now ?? '') + op.v);
      else if (Array.isArray(op.v) && now === undefined) write(parent, key, [...op.v]);
      else throw new Error(`an append of ${typeof op.v} to ${typeof now} at ${op.p}`);
      break;
    case 'truncate':
      if (typeof now === 'string' || Array.isArray(now))
        write(parent, key, now.slice(0, Number(op.v)));
      break;
    case 'remove':
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      break;
  }
  return root;
}

/** A delta frame's operation, its path and operation inherited from the last one it leaves out. */
export function opOf(frame: Obj, last: { p: string; o: string } | undefined): DeltaOp {
  const p = typeof frame.p === 'string' ? frame.p : last?.p;
  const o = typeof frame.o === 'string' ? frame.o : last?.o;
  if (p === undefined || o === undefined)
    throw new Error('a delta frame with neither its own path nor one to continue');
  return { p, o, v: frame.v };
}
