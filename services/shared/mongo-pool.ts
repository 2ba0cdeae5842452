/**
 * The driver's connection pool, bounded. Its defaults (up to 100 connections,
 * never closed while idle) let one busy minute open dozens of sockets that
 * stay for the life of the process: the soak saw an api node's open files
 * climb from 39 to 207 and the MongoDB-wire server's with them. A pool of
 * MAX_POOL_SIZE queues the rest of a burst (each process's services share
 * it), and a connection idle for MAX_IDLE_MS is closed, so a process's files
 * come back down after the burst. An operator who wants other figures puts
 * `maxPoolSize` / `maxIdleTimeMS` in MONGO_URL, which wins. Pure.
 */
export const MAX_POOL_SIZE = 20;
export const MAX_IDLE_MS = 60_000;

export interface PoolOptions {
  maxPoolSize?: number;
  maxIdleTimeMS?: number;
}

/** The bounds this service sets, leaving out any the URL's own options already give. */
export function poolOptions(url: string): PoolOptions {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const named = new Set([...new URLSearchParams(query).keys()].map((k) => k.toLowerCase()));
  const out: PoolOptions = {};
  if (!named.has('maxpoolsize')) out.maxPoolSize = MAX_POOL_SIZE;
  if (!named.has('maxidletimems')) out.maxIdleTimeMS = MAX_IDLE_MS;
  return out;
}
