/**
 * One mongoose connection per process and database, shared by every service of
 * the process and closed once, when the last one lets go.
 *
 * Closing is the last step of a node's stop (docs/operations.md, "Stopping"):
 * the services have stopped taking work and awaited their own, and the close
 * then waits for every operation still on the wire (a connection checked out
 * of the pool) to come back, up to SETTLE_MS. Closing under an operation would
 * fail it with MongoClientClosedError in a caller that may no longer be
 * listening.
 */
import mongoose, { type Connection } from 'mongoose';
import { poolOptions } from './mongo-pool.js';

/** How long the close waits for operations in flight; past it, they are cut off. */
export const SETTLE_MS = 5_000;

interface Entry {
  connection: Promise<Connection>;
  users: number;
  /** Operations on the wire now: connections checked out of the driver's pool. */
  inFlight: number;
  /** Called whenever `inFlight` drops to zero. */
  onIdle: Set<() => void>;
}

const open = new Map<string, Entry>();

export async function acquireConnection(url: string, dbName: string): Promise<Connection> {
  const key = `${url}|${dbName}`;
  let entry = open.get(key);
  if (!entry) {
    const connection = mongoose.createConnection(url, {
      dbName,
      serverSelectionTimeoutMS: 10_000,
      // Index builds are explicit (ensureIndexes) so that start-up order is deterministic.
      autoIndex: false,
      autoCreate: false,
      ...poolOptions(url),
    });
    const opened: Entry = {
      connection: connection.asPromise(),
      users: 0,
      inFlight: 0,
      onIdle: new Set(),
    };
    // The driver announces every checkout and check-in (its pool events), whatever is listening.
    const client = connection.getClient();
    client.on('connectionCheckedOut', () => (opened.inFlight += 1));
    client.on('connectionCheckedIn', () => {
      opened.inFlight = Math.max(0, opened.inFlight - 1);
      if (opened.inFlight === 0) for (const idle of [...opened.onIdle]) idle();
    });
    entry = opened;
    open.set(key, entry);
    entry.connection.catch(() => open.delete(key));
  }
  entry.users += 1;
  return entry.connection;
}

export async function releaseConnection(url: string, dbName: string): Promise<void> {
  const key = `${url}|${dbName}`;
  const entry = open.get(key);
  if (!entry) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  open.delete(key);
  const connection = await entry.connection.catch(() => undefined);
  if (!connection) return;
  await settled(entry, SETTLE_MS);
  await connection.close();
}

/** Resolves once no operation is on the wire, or after `timeoutMs`. */
function settled(entry: Entry, timeoutMs: number): Promise<void> {
  if (entry.inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      entry.onIdle.delete(done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    entry.onIdle.add(done);
  });
}
