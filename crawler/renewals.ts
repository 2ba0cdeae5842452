/**
 * Renewal of every lease a crawler node holds, with one timer and one batched
 * call per interval, as BullMQ renews all locks of a worker: a node with 100
 * leases used to run 100 timers and make 100 calls (and 100 writes) every
 * half lease. The interval is half the shortest lease held; a lease added
 * between two ticks is renewed at the next one, well inside its first half.
 */
import { renewalInterval } from '../services/shared/claim.js';

export interface RenewableLease {
  subTaskId: string;
  token: string;
  leaseMs: number;
}

export class Renewals<L extends RenewableLease> {
  private readonly held = new Map<L, () => void>();
  private timer: NodeJS.Timeout | undefined;
  private everyMs = Infinity;
  private renewing = false;

  /**
   * @param renew extends the leases; per lease, in order, false when it is gone.
   * @param warn a failed call is logged; the next tick tries again.
   */
  constructor(
    private readonly renew: (leases: L[]) => Promise<boolean[]>,
    private readonly warn: (message: string, err: unknown) => void,
  ) {}

  get size(): number {
    return this.held.size;
  }

  /** Renews the lease from now on; `lost` is called once if a renewal is refused. */
  add(lease: L, lost: () => void): void {
    this.held.set(lease, lost);
    const every = renewalInterval(lease.leaseMs);
    if (every >= this.everyMs && this.timer) return;
    this.everyMs = Math.min(this.everyMs, every);
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.tick(), this.everyMs);
  }

  delete(lease: L): void {
    this.held.delete(lease);
    if (this.held.size > 0) return;
    this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.everyMs = Infinity;
  }

  /** One batched renewal of every lease held now (skipped while the last one is still out). */
  async tick(): Promise<void> {
    const leases = [...this.held.keys()];
    if (leases.length === 0 || this.renewing) return;
    this.renewing = true;
    try {
      const held = await this.renew(leases);
      leases.forEach((lease, i) => {
        const lost = this.held.get(lease);
        if (held[i] === false && lost) {
          this.held.delete(lease);
          lost();
        }
      });
    } catch (err) {
      this.warn(`renewing ${leases.length} lease(s) failed:`, err);
    } finally {
      this.renewing = false;
    }
  }
}
