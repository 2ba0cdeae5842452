/**
 * What is in flight on which node and platform (and, for web sub tasks, as an
 * account of which region): the slots the dispatcher fills and frees. Claims
 * and releases made in the last few seconds outrank a database snapshot that
 * may predate them.
 */
import type { Clock } from '../shared/clock.js';

/** How long a claim or release is trusted over a database snapshot that may predate it. */
const RECENT_MS = 5_000;

export interface Flight {
  node: string;
  platform: string;
  /** Web sub tasks: the region of their account (null: an account without region). */
  accountRegion?: string | null;
}

export class Slots {
  private readonly flights = new Map<string, Flight>();
  private readonly perNode = new Map<string, number>();
  private readonly perPlatform = new Map<string, number>();
  /** Ids leased or released in the last few seconds, which a DB snapshot may not show yet. */
  private readonly recent = new Map<string, { at: number; leased: boolean; flight: Flight }>();

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.flights.size;
  }

  has(id: string): boolean {
    return this.flights.has(id);
  }

  busy(nodeId: string): number {
    return this.perNode.get(nodeId) ?? 0;
  }

  platformLoad(platform: string): number {
    return this.perPlatform.get(platform) ?? 0;
  }

  values(): IterableIterator<Flight> {
    return this.flights.values();
  }

  /** Rebuilds the view from stored leases. */
  reset(leases: ({ id: string } & Flight)[]): void {
    const now = this.clock.now();
    for (const [id, r] of this.recent) if (now - r.at > RECENT_MS) this.recent.delete(id);
    this.flights.clear();
    this.perNode.clear();
    this.perPlatform.clear();
    // A snapshot can predate the latest claims and releases: those stay as the events left them.
    for (const { id, ...flight } of leases) if (!this.recent.has(id)) this.add(id, flight, false);
    for (const [id, r] of this.recent) if (r.leased) this.add(id, r.flight, false);
  }

  /** `fresh`: a claim made now, which outranks snapshots for a few seconds. */
  add(id: string, flight: Flight, fresh = true): void {
    if (this.flights.has(id)) return;
    if (fresh) this.recent.set(id, { at: this.clock.now(), leased: true, flight });
    this.flights.set(id, flight);
    bump(this.perNode, flight.node, 1);
    bump(this.perPlatform, flight.platform, 1);
  }

  /** The sub task left its node (result, failure or lost lease). */
  release(id: string): void {
    const flight = this.flights.get(id);
    if (!flight) return;
    this.recent.set(id, { at: this.clock.now(), leased: false, flight });
    this.free(id, flight);
  }

  /** A slot reserved in a pass whose sub task was never leased: as if it had not been. */
  drop(id: string): void {
    this.free(id, this.flights.get(id));
    this.recent.delete(id);
  }

  /** Moves a reserved slot to another node (a web sub task follows its account's port). */
  move(id: string, flight: Flight): void {
    this.free(id, this.flights.get(id));
    this.add(id, flight);
  }

  private free(id: string, flight: Flight | undefined): void {
    if (!flight) return;
    this.flights.delete(id);
    bump(this.perNode, flight.node, -1);
    bump(this.perPlatform, flight.platform, -1);
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}
