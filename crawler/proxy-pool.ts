/**
 * The regional proxy ports of one crawler node and their health. The node
 * checks its own ports (only it has their credentials) on an interval, and
 * again at once after an attempt through a port failed; a port whose check
 * fails is inactive until a check passes. Leases pick an active port of
 * their region, another one than the failed attempt's when there is one.
 * Pure apart from the injected check and clock.
 */
import type { Clock } from '../services/shared/clock.js';
import type { ProxyPortConfig, ProxyPortHealth } from '../services/shared/proxy-ports.js';
import { proxyKey } from '../services/shared/proxy-config.js';

export interface CheckResult {
  ok: boolean;
  observedIp: string | null;
  error: string | null;
}

export type PortCheck = (port: ProxyPortConfig) => Promise<CheckResult>;

/** A port chosen for a lease; `null` from `pick` means: go direct. */
export interface ChosenPort {
  key: string;
  url: string;
  outIp: string;
}

interface PortState {
  config: ProxyPortConfig;
  key: string;
  /** Until its first check a port counts as active: the operator just configured it. */
  active: boolean;
  checkedAt: number;
  observedIp: string | null;
  error: string | null;
}

export class ProxyPool {
  private readonly ports: PortState[];
  private turn = 0;

  constructor(
    ports: readonly ProxyPortConfig[],
    private readonly check: PortCheck,
    private readonly clock: Clock,
  ) {
    this.ports = ports.map((config) => ({
      config,
      key: proxyKey(config.url),
      active: true,
      checkedAt: 0,
      observedIp: null,
      error: null,
    }));
  }

  get size(): number {
    return this.ports.length;
  }

  /** Every region code a port of this node serves. */
  regions(): string[] {
    return [...new Set(this.ports.flatMap((p) => p.config.regionCode))].sort();
  }

  health(): ProxyPortHealth[] {
    return this.ports.map((p) => ({
      key: p.key,
      port: p.config.port,
      province: p.config.province,
      city: p.config.city,
      regionCode: [...p.config.regionCode],
      outIp: p.config.outIp,
      active: p.active,
      checkedAt: p.checkedAt,
      observedIp: p.observedIp,
      error: p.error,
    }));
  }

  /**
   * The port for a lease: an active port of its region (taking turns), not
   * `avoid` when another one is active; undefined when the region has none.
   * Without a region: any active port, or null (direct) when the node has
   * no ports or none is active.
   */
  pick(regionCode: string | null, avoid: string | null = null): ChosenPort | null | undefined {
    const candidates = this.ports.filter(
      (p) => p.active && (regionCode === null || p.config.regionCode.includes(regionCode)),
    );
    if (candidates.length === 0) return regionCode === null ? null : undefined;
    const preferred = candidates.filter((p) => p.key !== avoid);
    const from = preferred.length > 0 ? preferred : candidates;
    const p = from[this.turn++ % from.length]!;
    return { key: p.key, url: p.config.url, outIp: p.config.outIp };
  }

  /**
   * The port an account is pinned to, by its key: the port itself, `inactive`
   * while its check fails, or undefined when this node has no such port.
   */
  byKey(key: string): ChosenPort | 'inactive' | undefined {
    const p = this.ports.find((x) => x.key === key);
    if (!p) return undefined;
    return p.active ? { key: p.key, url: p.config.url, outIp: p.config.outIp } : 'inactive';
  }

  /** Checks every port; true when any port's state changed. */
  async checkAll(): Promise<boolean> {
    const changed = await Promise.all(this.ports.map((p) => this.checkOne(p)));
    return changed.some(Boolean);
  }

  /** Checks one port now (after an attempt through it failed); true when its state changed. */
  async recheck(key: string): Promise<boolean> {
    const p = this.ports.find((x) => x.key === key);
    return p ? this.checkOne(p) : false;
  }

  private async checkOne(p: PortState): Promise<boolean> {
    const r = await this.check(p.config).catch((err: unknown): CheckResult => ({
      ok: false,
      observedIp: null,
      error: err instanceof Error ? err.message : String(err),
    }));
    const changed = p.active !== r.ok || p.error !== r.error;
    p.active = r.ok;
    p.checkedAt = this.clock.now();
    p.observedIp = r.observedIp;
    p.error = r.ok ? null : r.error;
    return changed;
  }
}
