/**
 * Gathers one snapshot of the business figures from the services that own
 * them, asked in parallel, and keeps it for a short while: Prometheus servers
 * (often two, for redundancy) and a person refreshing `/metrics` share one
 * gathering instead of each running the aggregations again.
 */
import type { Clock } from '../../shared/clock.js';
import type { CallbackFigures, TaskFigures } from '../../shared/contracts/figures.js';
import type { NodeState } from '../../shared/crawler-states.js';
import type { Backend } from '../backend.js';
import type { Logger } from '../middleware/errors.js';
import type { FiguresSnapshot } from './families.js';

export class FiguresSource {
  private kept: { at: number; snapshot: Promise<FiguresSnapshot> } | undefined;

  constructor(
    private readonly gather: () => Promise<FiguresSnapshot>,
    private readonly keepMs: number,
    private readonly clock: Clock,
  ) {}

  /** The kept snapshot while it is fresh (or still being gathered), else a new one. */
  snapshot(): Promise<FiguresSnapshot> {
    const now = this.clock.now();
    if (!this.kept || now - this.kept.at >= this.keepMs) {
      this.kept = { at: now, snapshot: this.gather() };
    }
    return this.kept.snapshot;
  }
}

/** Asks each source; one that fails is reported as down (null), the others still count. */
export function clusterFigures(
  backend: Backend,
  crawlerStates: () => Promise<NodeState[]>,
  logger: Logger,
): () => Promise<FiguresSnapshot> {
  const ask = async <T>(source: string, read: () => Promise<T>): Promise<T | null> => {
    try {
      return await read();
    } catch (err) {
      logger.warn(`metrics: the ${source} figures are missing: ${(err as Error).message}`);
      return null;
    }
  };
  return async () => {
    const [tasks, callbacks, crawlers, accounts] = await Promise.all([
      ask('tasks', () => backend.call<TaskFigures>('tasks.figures', {})),
      ask('callbacks', () => backend.call<CallbackFigures>('callbacks.figures', {})),
      ask('crawlers', crawlerStates),
      ask('accounts', () =>
        backend
          .call<{ platform: string; state: string }[]>('accounts.list', {})
          // A cluster without the web channel runs no accounts service: it has no accounts.
          .catch((err: { type?: string }) => {
            if (err.type === 'SERVICE_NOT_FOUND') return [];
            throw err;
          }),
      ),
    ]);
    return { tasks, callbacks, crawlers, accounts };
  };
}
