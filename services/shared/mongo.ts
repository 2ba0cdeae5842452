/**
 * One mongoose connection per process and database, shared by every service of
 * the process and closed when the last one lets go.
 */
import mongoose, { type Connection } from 'mongoose';

interface Entry {
  connection: Promise<Connection>;
  users: number;
}

const open = new Map<string, Entry>();

export async function acquireConnection(url: string, dbName: string): Promise<Connection> {
  const key = `${url}|${dbName}`;
  let entry = open.get(key);
  if (!entry) {
    const connection = mongoose
      .createConnection(url, {
        dbName,
        serverSelectionTimeoutMS: 10_000,
        // Index builds are explicit (ensureIndexes) so that start-up order is deterministic.
        autoIndex: false,
        autoCreate: false,
      })
      .asPromise();
    entry = { connection, users: 0 };
    open.set(key, entry);
    connection.catch(() => open.delete(key));
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
  await connection?.close();
}
