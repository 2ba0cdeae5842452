/**
 * What a traced node measures, kept as plain numbers: durations (or counts) by
 * name, when each name was first seen, and their summaries. The names come
 * from Moleculer's tracing spans (`handle <action>`, `event <event>`) and from
 * the MongoDB driver's command monitoring (`db <command> <collection>`).
 */

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  sum: number;
}

/** Nearest-rank summary; every field is NaN for no values (except n and sum, 0). */
export function summary(values: readonly number[]): Summary {
  const v = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    v.length === 0 ? NaN : v[Math.min(v.length - 1, Math.max(0, Math.ceil(p * v.length) - 1))]!;
  return {
    n: v.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: at(1),
    sum: v.reduce((a, b) => a + b, 0),
  };
}

/** The parts of a finished Moleculer span that the tally reads. */
export interface SpanLike {
  type?: string;
  startTime: number | null;
  duration: number | null;
  tags: Record<string, any>;
}

/** A sample a span gives: its name, start (epoch ms) and duration; undefined for spans we skip. */
export interface SpanSample {
  name: string;
  start: number;
  ms: number;
}

/** The benchmark's own service and Moleculer's internal ones are not what we measure. */
const skipped = (name: string) => name.startsWith('benchTrace.') || name.startsWith('$');

export function spanSample(span: SpanLike): SpanSample | undefined {
  if (span.startTime === null || span.duration === null) return undefined;
  let name: string | undefined;
  if (span.type === 'action') {
    const action = span.tags.action?.name;
    if (typeof action === 'string' && !skipped(action)) name = `handle ${action}`;
  } else if (span.type === 'event') {
    const event = span.tags.eventName;
    if (typeof event === 'string' && !skipped(event)) name = `event ${event}`;
  }
  return name === undefined ? undefined : { name, start: span.startTime, ms: span.duration };
}

/**
 * The tags we put on action spans: how many leases a `crawler.accept` call
 * carried (one call per node and dispatch pass). Nothing else, so that tracing
 * copies no params.
 */
export function actionTags(ctx: { action?: { name?: string } | null; params?: unknown }) {
  if (ctx.action?.name !== 'crawler.accept') return {};
  const leases = (ctx.params as { leases?: unknown } | undefined)?.leases;
  return Array.isArray(leases) ? { leases: leases.length } : {};
}

export class Tally {
  private samples = new Map<string, number[]>();
  private firsts = new Map<string, number>();

  /** A duration (or a count) that started at `start`, epoch ms. */
  record(name: string, start: number, value: number): void {
    const first = this.firsts.get(name);
    if (first === undefined || start < first) this.firsts.set(name, start);
    let list = this.samples.get(name);
    if (!list) this.samples.set(name, (list = []));
    list.push(value);
  }

  reset(): void {
    this.samples.clear();
    this.firsts.clear();
  }

  summaries(): Record<string, Summary> {
    const out: Record<string, Summary> = {};
    for (const [name, values] of this.samples) out[name] = summary(values);
    return out;
  }

  firstStarts(): Record<string, number> {
    return Object.fromEntries(this.firsts);
  }
}

/** What each traced node answers to `benchTrace.stats`. */
export interface TraceStats {
  node: string;
  windowMs: number;
  samples: Record<string, Summary>;
  /** When each name was first seen, epoch ms. */
  firsts: Record<string, number>;
  eventLoopDelay: { p50: number; p99: number; max: number };
}

/** `MONGO_URL` with the driver's command monitoring on (a connection-string option). */
export function withCommandMonitoring(url: string): string {
  const [base, query] = url.split('?', 2) as [string, string | undefined];
  const path = /^[a-z+]+:\/\/[^/]*$/i.test(base) ? `${base}/` : base;
  return `${path}?${query ? `${query}&` : ''}monitorCommands=true`;
}
