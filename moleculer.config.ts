/**
 * Broker options from the validated config. No TRANSPORTER means the embedded
 * default: every service in one process, calls stay local.
 */
import type { BrokerOptions } from 'moleculer';
import type { Config } from './services/shared/config.js';
import { logFormatter } from './services/shared/log-format.js';
import { stopOrder } from './services/shared/stop-order.js';

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
            options: {
              level: config.logLevel,
              formatter: logFormatter(config.logFormat),
              colors: false,
            },
          },
    requestTimeout: config.requestTimeoutMs,
    // One retry policy lives in the scheduler; broker-level retries would double it.
    retryPolicy: { enabled: false },
    heartbeatInterval: 2,
    heartbeatTimeout: 6,
    registry: { strategy: 'RoundRobin', preferLocal: true },
    metadata,
    skipProcessEventRegistration: true,
    // A node stops in one order: no new work, then what runs settles, then the connection closes.
    middlewares: [stopOrder],
    // Moleculer's own metrics (calls, events, transit, process) on every node that sets a port.
    metrics:
      config.metrics.port === undefined
        ? { enabled: false }
        : {
            enabled: true,
            reporter: [
              {
                type: 'Prometheus',
                options: {
                  host: config.host,
                  port: config.metrics.port,
                  path: '/metrics',
                  defaultLabels: (registry: { broker: { namespace: string; nodeID: string } }) => ({
                    namespace: registry.broker.namespace,
                    nodeID: registry.broker.nodeID,
                  }),
                },
              },
            ],
          },
  };
}
