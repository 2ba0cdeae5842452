/** What the embedded api service logs at warn and error level during a test. */
import type { Embedded, TapLike } from './cluster.js';

export function captureApiWarnings(t: TapLike, svc: Embedded): unknown[][] {
  const logger = svc.broker.getLocalService('api')!.logger;
  const logged: unknown[][] = [];
  const { error, warn } = logger;
  logger.error = (...args: unknown[]) => void logged.push(args);
  logger.warn = (...args: unknown[]) => void logged.push(args);
  t.teardown(() => Object.assign(logger, { error, warn }));
  return logged;
}
