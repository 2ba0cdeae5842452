/** The city lookup's proxy ports, filtered and shown as a table (pure). */
import type { ProxyPortRecord } from '../../services/shared/contracts/http.js';
import { renderTable } from './table.js';

/** A query matches a code's start (`31` finds Shanghai's codes) or part of a province or city name. */
export function matchesRegion(record: ProxyPortRecord, query: string | undefined): boolean {
  const q = (query ?? '').trim().toLowerCase();
  if (q === '') return true;
  return (
    record.regionCode.some((code) => code.startsWith(q)) ||
    record.province.toLowerCase().includes(q) ||
    record.city.toLowerCase().includes(q)
  );
}

export function regionsText(records: readonly ProxyPortRecord[]): string {
  const rows = records.map((r) => [
    r.regionCode.at(-1) ?? '',
    r.province,
    r.city,
    String(r.port),
    r.active ? 'yes' : 'no',
    r.outIp,
  ]);
  return renderTable(['regionCode', 'province', 'city', 'port', 'active', 'outIp'], rows);
}
