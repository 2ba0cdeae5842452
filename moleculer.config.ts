/**
 * Broker options from the validated config. No TRANSPORTER means the embedded
 * default: every service in one process, calls stay local.
 */
import type { BrokerOptions } from 'moleculer';
import type { Config } from './services/shared/config.js';

export function brokerOptions(
  config: Config,
  metadata: Record<string, unknown> = {},
): BrokerOptions {
  return {
    namespace: config.namespace,
    nodeID: config.nodeId,
    transporter: config.transporter ?? null,
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            type: 'Console',
            options: { level: config.logLevel, formatter: 'short', colors: false },
          },
    requestTimeout: config.requestTimeoutMs,
    // One retry policy lives in the scheduler; broker-level retries would double it.
    retryPolicy: { enabled: false },
    heartbeatInterval: 2,
    heartbeatTimeout: 6,
    registry: { strategy: 'RoundRobin', preferLocal: true },
    metadata,
    skipProcessEventRegistration: true,
  };
}
