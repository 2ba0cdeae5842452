/**
 * The shape check of a health report arriving from another node: one
 * malformed report (a node of another version, a bug) must not break the city
 * lookup for everyone, so it is refused whole.
 */
import type { ProxyHealthReport, ProxyPortHealth } from '../shared/proxy-ports.js';

const isText = (v: unknown): v is string => typeof v === 'string';

function isPort(v: unknown): v is ProxyPortHealth {
  const p = v as Partial<Record<keyof ProxyPortHealth, unknown>> | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    isText(p.key) &&
    Number.isInteger(p.port) &&
    isText(p.province) &&
    isText(p.city) &&
    Array.isArray(p.regionCode) &&
    p.regionCode.length > 0 &&
    p.regionCode.every(isText) &&
    isText(p.outIp) &&
    typeof p.active === 'boolean'
  );
}

/** The report when it has the ProxyHealthReport shape, else undefined. */
export function asReport(value: unknown): ProxyHealthReport | undefined {
  const r = value as { node?: unknown; ports?: unknown } | null;
  if (typeof r !== 'object' || r === null || !isText(r.node) || !Array.isArray(r.ports)) {
    return undefined;
  }
  return r.ports.every(isPort) ? (r as ProxyHealthReport) : undefined;
}
