/** The platform catalogue (`GET /platforms`) as a table (pure). */
import type { PlatformEntry } from '../../services/shared/contracts/http.js';

type Verdict = PlatformEntry['availability'][keyof PlatformEntry['availability']];
import { renderTable } from './table.js';

/** `yes`, `no (what is missing)`, or `unknown (why)`: submissions to an unknown pair wait. */
export function verdictText(v: Verdict): string {
  if (!v) return 'unknown';
  const word = v.available === null ? 'unknown' : v.available ? 'yes' : 'no';
  return v.reason === null ? word : `${word} (${v.reason})`;
}

export function platformsText(entries: readonly PlatformEntry[]): string {
  const perChannel = (p: PlatformEntry, cell: (channel: string) => string) =>
    Object.keys(p.channels)
      .map((channel) => `${channel}: ${cell(channel)}`)
      .join('\n');
  const rows = entries.map((p) => [
    p.platform,
    p.label,
    perChannel(p, (channel) =>
      (p.channels[channel as keyof PlatformEntry['channels']] ?? []).join(', '),
    ),
    p.channel,
    perChannel(p, (channel) =>
      verdictText(p.availability[channel as keyof PlatformEntry['availability']]),
    ),
  ]);
  return renderTable(
    ['platform', 'label', 'channels: modes', 'default channel', 'available'],
    rows,
  );
}
