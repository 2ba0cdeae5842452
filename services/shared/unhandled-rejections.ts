/**
 * No rejection goes unheard. A node process logs every promise rejection that
 * nobody handled as an ERROR line starting with UNHANDLED_REJECTION_MARK and
 * counts it in the Moleculer metric UNHANDLED_REJECTIONS_METRIC (on /metrics
 * where the node serves them). Without this handler Node ends the process on
 * the first one: a crash at every rolling restart that had an operation in
 * flight. The count tells the operator; the tests fail on the line
 * (infra/processes.ts watches every child's output for it).
 */
import type { ServiceBroker } from 'moleculer';

export const UNHANDLED_REJECTION_MARK = 'UNHANDLED REJECTION';
export const UNHANDLED_REJECTIONS_METRIC = 'aimon.process.unhandled_rejections.total';

/** Installs the handler for this broker's process; returns what removes it. */
export function countUnhandledRejections(broker: ServiceBroker): () => void {
  let count = 0;
  broker.metrics.register({
    type: 'counter',
    name: UNHANDLED_REJECTIONS_METRIC,
    description: 'Promise rejections that nobody handled (each one is a bug: see the log)',
  });
  const onRejection = (reason: unknown) => {
    count += 1;
    broker.metrics.increment(UNHANDLED_REJECTIONS_METRIC);
    broker.logger.error(`${UNHANDLED_REJECTION_MARK} #${count} on node ${broker.nodeID}:`, reason);
  };
  process.on('unhandledRejection', onRejection);
  return () => void process.off('unhandledRejection', onRejection);
}
