/**
 * Token buckets per caller, pure apart from the injected clock. Each api node
 * keeps its own buckets, so the cluster-wide allowance is the per-node rate
 * times the number of api nodes behind the load balancer.
 */
import type { Clock } from '../shared/clock.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly clock: Clock,
    private readonly maxKeys = 100_000,
  ) {}

  /** Takes one token; returns 0 when allowed, else the seconds until one is available. */
  take(key: string): number {
    const now = this.clock.now();
    const bucket = this.refilled(key, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return (1 - bucket.tokens) / this.perSecond;
  }

  private refilled(key: string, now: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys) this.forgetFull(now);
      // Still full: drop the longest-known caller, so memory stays bounded under a flood of keys.
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
      bucket = { tokens: this.burst, updatedAt: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    const elapsed = Math.max(0, now - bucket.updatedAt) / 1000;
    bucket.tokens = Math.min(this.burst, bucket.tokens + elapsed * this.perSecond);
    bucket.updatedAt = now;
    return bucket;
  }

  /** A bucket that has refilled completely holds no information and can go. */
  private forgetFull(now: number): void {
    const fullAfterMs = (this.burst / this.perSecond) * 1000;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.updatedAt >= fullAfterMs) this.buckets.delete(key);
    }
  }
}
