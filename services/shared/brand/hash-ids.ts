/**
 * Strings as numbers, so a pass over thousands of stored answers counts by
 * array index instead of hashing the same strings again:
 * - `hash53`: a 53-bit hash of a string, computed once (when an answer is
 *   recorded) and stored as a plain JSON number;
 * - `HashIds`: such hashes as dense ids 0, 1, … for one pass, an open-
 *   addressing table over typed arrays (a look-up is a few array reads).
 * Two different strings share a hash with a probability of about n²/2⁵⁴ for
 * n distinct strings in one pass (below 10⁻⁷ for 50,000 URLs); the pass then
 * counts them as one. Pure.
 */

const TWO_32 = 0x1_0000_0000;

/**
 * A 53-bit hash of `s` (a safe integer, never 0): two 32-bit FNV-1a lanes
 * over its UTF-16 code units with different offsets, the high 21 bits from
 * one and the low 32 from the other, each finished with a murmur3 mix.
 */
export function hash53(s: string): number {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return (mix(a) >>> 11) * TWO_32 + (mix(b ^ s.length) >>> 0) || 1;
}

/** murmur3's finaliser: every input bit moves every output bit. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Hashes (hash53, never 0) as dense ids in the order first seen. */
export class HashIds {
  private keys = new Float64Array(64);
  private ids = new Int32Array(64);
  private mask = 63;
  /** How many ids were given. */
  size = 0;

  /** The id of `hash`, or -1 when it has none yet. */
  get(hash: number): number {
    const { keys, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const k = keys[slot]!;
      if (k === hash) return this.ids[slot]!;
      if (k === 0) return -1;
    }
  }

  /** The id of `hash`, given (the next one, `size` before the call) on first sight. */
  id(hash: number): number {
    const { keys, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const k = keys[slot]!;
      if (k === hash) return this.ids[slot]!;
      if (k === 0) return this.insert(hash, slot);
    }
  }

  /** Kept apart from `id` so that the look-up stays small enough to be inlined. */
  private insert(hash: number, slot: number): number {
    const id = this.size++;
    this.keys[slot] = hash;
    this.ids[slot] = id;
    if (this.size * 2 > this.mask) this.grow();
    return id;
  }

  private grow(): void {
    const { keys, ids } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.ids = new Int32Array(keys.length * 2);
    this.mask = keys.length * 2 - 1;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k === 0) continue;
      let slot = k & this.mask;
      while (this.keys[slot] !== 0) slot = (slot + 1) & this.mask;
      this.keys[slot] = k;
      this.ids[slot] = ids[i]!;
    }
  }
}
