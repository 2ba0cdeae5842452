/**
 * The cluster's proxy ports as the `proxies` service knows them: the latest
 * health report of every crawler node, its ports turned inactive when the node
 * goes and forgotten some time later, and the city lookup and region counts
 * computed from them. Pure: the service feeds it events and pulled reports.
 */
import type { Clock } from '../shared/clock.js';
import type { CityInfoRecord, ProxyHealthReport, ProxyPortHealth } from '../shared/proxy-ports.js';

interface NodeState {
  ports: ProxyPortHealth[];
  /** When the node disconnected; null while it is up. */
  goneAt: number | null;
  /** Registry-wide sequence number of the node's latest change. */
  seq: number;
}

/** How many ports list a region code, and how many of them are active. */
export interface RegionCount {
  ports: number;
  active: number;
}

export class ProxyRegistry {
  private readonly nodes = new Map<string, NodeState>();
  private seq = 0;

  constructor(
    private readonly clock: Clock,
    /** How long the ports of a gone node stay listed (inactive). */
    private readonly forgetMs: number,
  ) {}

  /**
   * The node's current version. A pulled report is applied only if the
   * version is unchanged since the pull began: an event that arrived
   * meanwhile is newer than the answer.
   */
  version(node: string): number {
    return this.nodes.get(node)?.seq ?? 0;
  }

  /** Replaces the node's state by its report; false when `ifVersion` is stale. */
  report(node: string, report: ProxyHealthReport, ifVersion?: number): boolean {
    if (ifVersion !== undefined && ifVersion !== this.version(node)) return false;
    this.nodes.set(node, { ports: report.ports, goneAt: null, seq: ++this.seq });
    return true;
  }

  /** The node left: its ports stay listed, inactive, until forgotten. */
  gone(node: string): void {
    const state = this.nodes.get(node);
    // A second notice must not postpone forgetting.
    if (!state || state.goneAt !== null) return;
    const error = `crawler node ${node} is gone`;
    this.nodes.set(node, {
      ports: state.ports.map((p) => ({ ...p, active: false, error })),
      goneAt: this.clock.now(),
      seq: ++this.seq,
    });
  }

  /** Nodes known here but not live any more are gone (heals a missed disconnect). */
  retain(live: Iterable<string>): void {
    const alive = new Set(live);
    for (const node of [...this.nodes.keys()]) if (!alive.has(node)) this.gone(node);
  }

  /** Every port once by key: one seen on several nodes is active if active on any. */
  ports(): ProxyPortHealth[] {
    this.forgetGone();
    const byKey = new Map<string, ProxyPortHealth>();
    for (const node of [...this.nodes.keys()].sort()) {
      for (const p of this.nodes.get(node)!.ports) {
        const seen = byKey.get(p.key);
        if (!seen || preferred(p, seen)) byKey.set(p.key, p);
      }
    }
    return [...byKey.values()].sort(byRegionThenPort);
  }

  /** The city lookup; deduplicated: one port per most specific code, an active one if any. */
  cityInfo(deduplicate: boolean): CityInfoRecord[] {
    const ports = this.ports();
    if (!deduplicate) return ports.map(toRecord);
    const byRegion = new Map<string, ProxyPortHealth>();
    for (const p of ports) {
      const region = p.regionCode[p.regionCode.length - 1]!;
      const chosen = byRegion.get(region);
      if (!chosen || (p.active && !chosen.active)) byRegion.set(region, p);
    }
    return [...byRegion.values()].sort(byRegionThenPort).map(toRecord);
  }

  /** Every code any known port lists, with its port counts. */
  regions(): Record<string, RegionCount> {
    const counts: Record<string, RegionCount> = {};
    for (const p of this.ports()) {
      for (const code of new Set(p.regionCode)) {
        const c = (counts[code] ??= { ports: 0, active: 0 });
        c.ports += 1;
        if (p.active) c.active += 1;
      }
    }
    return counts;
  }

  private forgetGone(): void {
    const now = this.clock.now();
    for (const [node, state] of this.nodes) {
      if (state.goneAt !== null && now - state.goneAt >= this.forgetMs) this.nodes.delete(node);
    }
  }
}

/** Of two reports of one port, the active one, else the more recently checked. */
function preferred(a: ProxyPortHealth, b: ProxyPortHealth): boolean {
  if (a.active !== b.active) return a.active;
  return a.checkedAt > b.checkedAt;
}

function compareCodes(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}

/** A stable order: region codes, then port, then the key that tells equal ports apart. */
function byRegionThenPort(a: ProxyPortHealth, b: ProxyPortHealth): number {
  return (
    compareCodes(a.regionCode, b.regionCode) ||
    a.port - b.port ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

/** Exactly the spec 2.3 fields: the key, check times and errors stay inside. */
function toRecord(p: ProxyPortHealth): CityInfoRecord {
  return {
    port: p.port,
    province: p.province,
    city: p.city,
    regionCode: [...p.regionCode],
    outIp: p.outIp,
    active: p.active,
  };
}
