/**
 * The REPL's `regions` command: crawler nodes by region, with their capacity,
 * what they are running and how many of the region's proxy ports are active,
 * so an operator sees at a glance where to add nodes.
 */
import type { ServiceBroker } from 'moleculer';
import { nodeStates, type NodeState } from '../services/shared/crawler-states.js';

/** Rows of the table (pure): one per region and node, plus nodes without ports as `(any)`. */
export function regionRows(states: readonly NodeState[]): string[][] {
  const rows: string[][] = [];
  for (const s of states) {
    const regions = s.node.regions.length > 0 ? s.node.regions : ['(any)'];
    for (const region of regions) {
      const ports = s.ports.filter((p) => region === '(any)' || p.regionCode.includes(region));
      rows.push([
        region,
        s.node.id,
        String(s.node.capacity),
        s.running === null ? '?' : String(s.running),
        region === '(any)' ? 'direct' : `${ports.filter((p) => p.active).length}/${ports.length}`,
      ]);
    }
  }
  return rows.sort((a, b) => a[0]!.localeCompare(b[0]!) || a[1]!.localeCompare(b[1]!));
}

export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** Moleculer REPL custom commands (broker option `replCommands`). */
export const replCommands = [
  {
    command: 'regions',
    description: 'Crawler nodes by region: capacity, running, active proxy ports',
    async action(broker: ServiceBroker) {
      const rows = regionRows(await nodeStates(broker));
      console.log(
        rows.length === 0
          ? 'no crawler node is up'
          : formatTable(['region', 'node', 'capacity', 'running', 'active ports'], rows),
      );
    },
  },
];
