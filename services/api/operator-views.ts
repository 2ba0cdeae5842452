/** The crawler nodes as operators read them (`GET …/operator/nodes`, the MCP `crawler_nodes` tool). */
import type { NodeState } from '../shared/crawler-states.js';

export function nodeRows(states: readonly NodeState[]) {
  return states.map(({ node, running, ports }) => ({
    nodeId: node.id,
    regions: node.regions,
    capacity: node.capacity,
    running,
    platforms: node.platforms,
    channels: node.channels,
    ports: ports.length,
    activePorts: ports.filter((p) => p.active).length,
    available: running !== null,
  }));
}
