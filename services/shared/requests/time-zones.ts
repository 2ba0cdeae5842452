/**
 * The time zones a monitor's cron schedule may name, one list for the check
 * and for the OpenAPI document's `enum`, so a schema-aware client sends only
 * what the service accepts and the service accepts all it is sent from the
 * list. The list is this runtime's ICU zones (`Intl.supportedValuesOf`, one
 * canonical IANA name per zone, a few in their older spelling: Asia/Calcutta,
 * Europe/Kiev) and UTC, which ICU lists only as its aliases.
 */
export const TIME_ZONES: readonly string[] = [
  ...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']),
].sort();

const LISTED = new Set(TIME_ZONES);

/**
 * Why a zone is refused, or null when it is listed. A name Intl reads as a
 * listed zone under another spelling (Asia/Kolkata, Etc/UTC, utc) is refused
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
