/**
 * Regional proxy ports: what an operator configures on a crawler node, what
 * the node tells the cluster about them, and their health. Credentials stay
 * on the node: adverts and health reports never carry the proxy URL.
 */

/** One port as configured on a crawler node (CRAWLER_PROXIES / CRAWLER_PROXIES_FILE). */
export interface ProxyPortConfig {
  /** The proxy's port number (spec 2.3 `port`). */
  port: number;
  /** How to reach it, with credentials: `http://user:pass@host:port`. */
  url: string;
  province: string;
  city: string;
  /** Administrative division codes, 6 digits, province first: ['310000', '310100']. */
  regionCode: string[];
  /** The exit address the platforms see (recorded as `proxyIp`). */
  outIp: string;
}

/** A port as the cluster knows it: the spec 2.3 record without `active`, plus a key. */
export interface ProxyPortInfo {
  /** `host:port` of the proxy: unique across the cluster, stable across restarts. */
  key: string;
  port: number;
  province: string;
  city: string;
  regionCode: string[];
  outIp: string;
}

/** The latest health check of a port, made by the crawler node that uses it. */
export interface ProxyPortHealth extends ProxyPortInfo {
  active: boolean;
  /** Epoch ms of the latest check; 0 before the first. */
  checkedAt: number;
  /** Exit address the check observed, when the check URL reports one. */
  observedIp: string | null;
  /** Why the port is inactive. */
  error: string | null;
}

/**
 * Broadcast `proxies.health` by every crawler node after each round of checks
 * (and answered by its `crawler.ports` action): the full state of its ports.
 */
export interface ProxyHealthReport {
  node: string;
  ports: ProxyPortHealth[];
}

/** The spec 2.3 proxy port record served by the city lookup. */
export interface CityInfoRecord {
  port: number;
  province: string;
  city: string;
  regionCode: string[];
  outIp: string;
  active: boolean;
}

/** Whether a port serves a submitted region code (a province code covers its cities' ports). */
export function servesRegion(port: Pick<ProxyPortInfo, 'regionCode'>, code: string): boolean {
  return port.regionCode.includes(code);
}
