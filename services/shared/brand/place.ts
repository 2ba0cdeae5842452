/**
 * Where a visibility row's (or domains entry's) figures come from, as people
 * read it; shared by the dashboard's charts and the MCP summaries.
 */
import type { VisibilityRow } from '../contracts/brand.js';

/** The platform, with `channel` and `mode` only where the visibility splits by them. */
export type Place = Pick<VisibilityRow, 'platform' | 'channel' | 'mode'>;

/** `platform · channel · mode`, each part only where the place has it. */
export const placeName = (p: Place): string =>
  [p.platform, p.channel, p.mode].filter(Boolean).join(' · ');
