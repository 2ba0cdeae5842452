/**
 * Gathers one snapshot of the business figures from the services that own
 * them, asked in parallel, and keeps it for a short while: the families of one
 * scrape, Prometheus servers (often two, for redundancy) and a person
 * refreshing `/metrics` share one gathering instead of each running the
 * aggregations again.
 */
import type { Clock } from '../../shared/clock.js';
import type { CallbackFigures, TaskFigures } from '../../shared/contracts/figures.js';
import type { NodeState } from '../../shared/crawler-states.js';
import { listAccounts } from '../accounts.js';
import type { Backend } from '../backend.js';
import type { Logger } from '../middleware/errors.js';
import type { FiguresSnapshot } from './families.js';

export class FiguresSource {
  /** The latest gathering; `doneAt` once it has finished. */
  private kept: { snapshot: Promise<FiguresSnapshot>; doneAt?: number } | undefined;

  constructor(
    private readonly gather: () => Promise<FiguresSnapshot>,
    private readonly keepMs: number,
    private readonly clock: Clock,
  ) {}

  /**
   * The gathering under way, or the latest one while it is fresh, else a new
   * one. A scrape asks once per family at the same moment: with any keepMs
   * (0 too) they all share one gathering.
   */
  snapshot(): Promise<FiguresSnapshot> {
    const k = this.kept;
    if (k && (k.doneAt === undefined || this.clock.now() - k.doneAt < this.keepMs)) {
      return k.snapshot;
    }
    const kept: { snapshot: Promise<FiguresSnapshot>; doneAt?: number } = {
      snapshot: this.gather(),
    };
    const done = () => void (kept.doneAt = this.clock.now());
    kept.snapshot.then(done, done);
    this.kept = kept;
    return kept.snapshot;
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
      ask('accounts', () => listAccounts<{ platform: string; state: string }>(backend)),
    ]);
    return { tasks, callbacks, crawlers, accounts };
  };
}
