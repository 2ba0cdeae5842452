/** The platform catalogue (`GET /platforms`) as a table (pure). */
import type { PlatformEntry } from '../../services/api/contract.js';
import { renderTable } from './table.js';

/** `yes`, `no`, or `unknown` while no crawler node is up (submissions then wait for one). */
export function availability(p: Pick<PlatformEntry, 'available' | 'availableChannels'>): string {
  if (p.available === null) return 'unknown (no crawler node up)';
  if (!p.available) return 'no';
  return `yes (${(p.availableChannels ?? []).join(', ')})`;
}

export function platformsText(entries: readonly PlatformEntry[]): string {
  const rows = entries.map((p) => [
    p.platform,
    p.label,
    Object.entries(p.channels)
      .map(([channel, modes]) => `${channel}: ${(modes ?? []).join(', ')}`)
      .join('\n'),
    p.channel,
    availability(p),
  ]);
  return renderTable(
    ['platform', 'label', 'channels: modes', 'default channel', 'available'],
    rows,
  );
}
