/**
 * The time zones a monitor's cron schedule may name, one list for the check
 * and for the OpenAPI document's `enum`, so a schema-aware client sends only
 * what the service accepts and the service accepts all it is sent from the
 * list. The list is this runtime's ICU zones (`Intl.supportedValuesOf`, one
 * canonical IANA name per zone, a few in their older spelling: Asia/Calcutta,
 * Europe/Kiev), UTC, which ICU lists only as its aliases, and IANA's current
 * names of the zones ICU still spells the old way: a user in India writes
 * Asia/Kolkata, and refusing the zone's own current name would be the list's
 * fault, not the user's.
 */
const CURRENT_NAMES = [
  'Asia/Kolkata',
  'Europe/Kyiv',
  'Asia/Ho_Chi_Minh',
  'Asia/Kathmandu',
  'Asia/Yangon',
  'America/Nuuk',
  'Atlantic/Faroe',
  'Pacific/Kanton',
  'Pacific/Chuuk',
  'Pacific/Pohnpei',
];

/** Whether this runtime can compute times in the zone (croner uses the same Intl). */
const computable = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export const TIME_ZONES: readonly string[] = [
  ...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', ...CURRENT_NAMES.filter(computable)]),
].sort();

const LISTED = new Set(TIME_ZONES);

/**
 * Why a zone is refused, or null when it is listed. A name Intl reads as a
 * listed zone under another spelling (Etc/UTC, utc, asia/shanghai) is refused
 * too, naming the listed spelling, so the list stays the whole truth.
 */
export function timeZoneProblem(zone: string): string | null {
  if (LISTED.has(zone)) return null;
  let listedAs: string | undefined;
  try {
    listedAs = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    // Not a zone at all.
  }
  return listedAs && LISTED.has(listedAs)
    ? `must be a listed IANA time zone: this one is listed as ${listedAs}`
    : 'must be an IANA time zone (e.g. Asia/Shanghai, Europe/Berlin, UTC)';
}
