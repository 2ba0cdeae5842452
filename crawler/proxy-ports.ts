/**
 * A node's configured proxy ports with their region codes completed and named
 * from the administrative-division data: a city code brings its province's
 * code, and names the operator left out come from the division of the port's
 * most specific code.
 */
import { divisionNames, regionCodesOf } from '../services/shared/divisions.js';
import type { ProxyPortSetting } from '../services/shared/proxy-config.js';
import type { ProxyPortConfig } from '../services/shared/proxy-ports.js';

export function resolvePorts(settings: readonly ProxyPortSetting[]): ProxyPortConfig[] {
  return settings.map((s) => {
    const codes = [...new Set(s.regionCode.flatMap((c) => regionCodesOf(c) ?? [c]))].sort();
    const names = divisionNames(codes[codes.length - 1]!);
    return {
      port: s.port,
      url: s.url,
      regionCode: codes,
      province: s.province ?? names?.province ?? '',
      city: s.city ?? names?.city ?? names?.province ?? '',
      outIp: s.outIp,
    };
  });
}
