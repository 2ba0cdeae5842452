/**
 * DeepSeek's chat stream is a series of patches on one response object
 * (`{v, p, o}`, 2025 and 2026 alike): `p` a slash path under the root
 * (`response/fragments/-1/content`; negative indices count from the end), `o`
 * the operation (SET when absent, APPEND, BATCH of sub-patches relative to
 * `p`), `v` the value. A patch with neither `p` nor `o` is either the opening
 * snapshot (`{"v":{"response":{…}}}`) or a bare text increment, which belongs
 * to the newest fragment's content (xln3/platform-v2 deepseek_adapter.py,
 * "裸增量"). Pure; anything it cannot place is a PatchError, never a guess.
 */

export class PatchError extends Error {}

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Patch {
  p?: string;
  o?: string;
  v: unknown;
}

export function asPatch(data: unknown): Patch {
  if (!isObj(data) || !('v' in data)) throw new PatchError('a message without a patch value');
  const { p, o } = data;
  if (p !== undefined && typeof p !== 'string') throw new PatchError('a patch path not a string');
  if (o !== undefined && typeof o !== 'string') throw new PatchError('a patch op not a string');
  return { p, o, v: data.v };
}

const BARE_TEXT_PATH = 'response/fragments/-1/content';

export class PatchState {
  readonly root: Obj = {};

  apply(patch: Patch): void {
    if (patch.p === undefined || patch.p === '') {
      if (typeof patch.v === 'string') return this.at(BARE_TEXT_PATH, 'APPEND', patch.v);
      if (patch.o === undefined && isObj(patch.v) && isObj(patch.v.response)) {
        Object.assign(this.root, patch.v);
        return;
      }
      throw new PatchError('a patch without a path that is neither a snapshot nor text');
    }
    this.at(patch.p, patch.o ?? 'SET', patch.v);
  }

  private at(path: string, op: string, value: unknown): void {
    switch (op) {
      case 'BATCH': {
        if (!Array.isArray(value)) throw new PatchError(`BATCH at ${path} without a list`);
        for (const sub of value) {
          const s = asPatch(sub);
          if (!s.p) throw new PatchError(`a BATCH item at ${path} without a path`);
          this.at(`${path}/${s.p}`, s.o ?? 'SET', s.v);
        }
        return;
      }
      case 'SET': {
        const { parent, key } = this.slot(path);
        if (Array.isArray(parent)) parent[key as number] = value;
        else parent[key] = value;
        return;
      }
      case 'APPEND': {
        const { parent, key } = this.slot(path);
        const current = (parent as Obj)[key as string];
        if (Array.isArray(current)) {
          current.push(...(Array.isArray(value) ? value : [value]));
        } else if ((typeof current === 'string' || current == null) && typeof value === 'string') {
          (parent as Obj)[key as string] = (current ?? '') + value;
        } else {
          throw new PatchError(`APPEND of ${typeof value} to ${typeof current} at ${path}`);
        }
        return;
      }
      default:
        throw new PatchError(`unknown patch operation "${op}"`);
    }
  }

  /** The container holding the last segment of `path`, and that segment as a key. */
  private slot(path: string): { parent: Obj | unknown[]; key: string | number } {
    const segments = path.split('/');
    let node: unknown = this.root;
    for (let i = 0; i < segments.length - 1; i++) node = step(node, segments[i]!, path);
    const last = segments[segments.length - 1]!;
    if (Array.isArray(node)) return { parent: node, key: index(node, last, path) };
    if (isObj(node)) return { parent: node, key: last };
    throw new PatchError(`path ${path} does not lead into an object`);
  }
}

function index(list: unknown[], segment: string, path: string): number {
  if (!/^-?\d+$/.test(segment)) throw new PatchError(`non-numeric index in ${path}`);
  const n = Number(segment);
  const at = n < 0 ? list.length + n : n;
  if (at < 0 || at >= list.length) throw new PatchError(`index ${segment} out of range in ${path}`);
  return at;
}

function step(node: unknown, segment: string, path: string): unknown {
  if (Array.isArray(node)) return node[index(node, segment, path)];
  if (isObj(node) && segment in node) return node[segment];
  throw new PatchError(`path ${path} names "${segment}", which the response does not have`);
}
