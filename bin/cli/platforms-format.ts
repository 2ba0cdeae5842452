/** The platform catalogue (`GET /platforms`) as a table (pure). */
import { renderTable } from './table.js';

/** One channel's availability, as the service judges it for every client. */
export interface Verdict {
  available: boolean | null;
  reason: string | null;
}

export interface PlatformEntry {
  platform: string;
  label: string;
  aliases: string[];
  channel: string;
  channels: Record<string, string[] | undefined>;
  availability: Record<string, Verdict | undefined>;
}

/** `yes`, `no (what is missing)`, or `unknown (why)`: submissions to an unknown pair wait. */
export function verdictText(v: Verdict | undefined): string {
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
    perChannel(p, (channel) => (p.channels[channel] ?? []).join(', ')),
    p.channel,
    perChannel(p, (channel) => verdictText(p.availability[channel])),
  ]);
  return renderTable(
    ['platform', 'label', 'channels: modes', 'default channel', 'available'],
    rows,
  );
}
