/**
 * The api's `/metrics` registry (prom-client): one collector per business
 * family, each reading the shared snapshot of figures-source.ts, so one scrape
 * gathers the figures once.
 */
import { Registry, type Metric } from 'prom-client';
import { families, type Family, type FiguresSnapshot } from './families.js';
import type { FiguresSource } from './figures-source.js';

/** Every family with all sources present: the names and types the registry declares. */
const DECLARED = families({
  tasks: { subtasks: [], answerTimes: [], webOutcomes: [] },
  callbacks: { attempts: [], deliveries: [] },
  crawlers: [],
  accounts: [],
});

export function businessRegistry(source: FiguresSource): Registry {
  const registry = new Registry();
  // Every collector of one scrape reads the same snapshot: map it to families once.
  let mapped: { snapshot: FiguresSnapshot; byName: Map<string, Family> } | undefined;
  const byName = async (name: string): Promise<Family | undefined> => {
    const snapshot = await source.snapshot();
    if (mapped?.snapshot !== snapshot) {
      mapped = { snapshot, byName: new Map(families(snapshot).map((f) => [f.name, f])) };
    }
    return mapped.byName.get(name);
  };
  for (const declared of DECLARED) {
    registry.registerMetric(collector(declared, byName));
  }
  return registry;
}

/** A prom-client metric whose values come from the snapshot at scrape time. */
function collector(
  declared: Family,
  current: (name: string) => Promise<Family | undefined>,
): Metric {
  const { name, help, type } = declared;
  return {
    name,
    help,
    type,
    get: async () => ({
      name,
      help,
      type,
      aggregator: 'first',
      values: ((await current(name))?.samples ?? []).map((s) => ({
        labels: s.labels,
        value: s.value,
        ...(s.metricName && { metricName: s.metricName }),
      })),
    }),
    reset: () => undefined,
  } as unknown as Metric;
}
