/**
 * Who settles sub tasks: a node and its incarnation (Moleculer gives each start
 * a new instanceID). A final sub task not yet counted carries its settler's
 * name (ledger.ts); the counter mender waits for a settler that still runs and
 * recounts at once after one that is gone: killed, or restarted as a new
 * incarnation, whose count will never come.
 */
import type { ServiceBroker } from 'moleculer';

export function settlerOf(broker: ServiceBroker): string {
  return `${broker.nodeID}/${broker.instanceID}`;
}

export function settlerAlive(broker: ServiceBroker, settler: string): boolean {
  const slash = settler.lastIndexOf('/');
  const nodeID = settler.slice(0, slash);
  const instanceID = settler.slice(slash + 1);
  if (nodeID === broker.nodeID) return instanceID === broker.instanceID;
  const node = broker.registry.nodes.get(nodeID) as
    { available: boolean; instanceID?: string } | undefined;
  return node !== undefined && node.available && node.instanceID === instanceID;
}
