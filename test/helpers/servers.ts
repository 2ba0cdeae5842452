/**
 * The real servers tests talk to: `npm test` (infra/test.sh) starts a NATS
 * server and a MongoDB-wire server on loopback and passes their URLs.
 */
import { randomBytes } from 'node:crypto';

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: run the suite with \`npm test\` (infra/test.sh starts the servers)`,
    );
  return value;
}

export const mongoUrl = (): string => required('TEST_MONGO_URL');
export const natsUrl = (): string => required('TEST_NATS_URL');

/** Every test file gets its own database (dropped in teardown). */
export function uniqueDbName(prefix: string): string {
  return `t_${prefix.replace(/[^A-Za-z0-9]/g, '').slice(0, 30)}_${randomBytes(4).toString('hex')}`;
}
