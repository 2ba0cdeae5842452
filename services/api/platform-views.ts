/** The platform catalogue with each channel's availability, as `GET /platforms` and the MCP tool show it. */
import { PLATFORMS, supportedModes, type Channel } from '../shared/platforms.js';
import type { Verdict } from '../shared/availability.js';
import type { Built, PlatformsData } from '../shared/contracts/http.js';
import type { Backend } from './backend.js';

/** `tasks.availability`: per platform its active channel and each channel's verdict. */
interface Offer {
  platform: string;
  channel: Channel;
  verdicts: Partial<Record<Channel, Verdict>>;
}

/** `query`: the request's query string (`regionCode`), checked by the tasks service. */
export async function platformEntries(
  backend: Backend,
  query: Record<string, unknown>,
): Promise<Built<PlatformsData>> {
  const offer = await backend.call<Offer[]>('tasks.availability', { query });
  const of = new Map(offer.map((o) => [o.platform, o]));
  const entries: Built<PlatformsData> = PLATFORMS.map((p) => {
    const { channel, verdicts } = of.get(p.name)!;
    return {
      platform: p.name,
      label: p.label,
      vendor: p.vendor,
      aliases: p.aliases,
      modes: supportedModes(p, channel),
      channel,
      defaultChannel: p.defaultChannel,
      serves: p.serves ?? 'everywhere',
      channels: p.channels,
      available: verdicts[channel]!.available,
      availability: verdicts,
    };
  });
  return entries;
}
