/**
 * The resolved configuration as an operator may read it (`serve.ts
 * --print-config`): secrets show only that they are set, and URLs lose their
 * passwords, so the output can go into a ticket or a build log.
 */
import type { Config } from '../services/shared/config.js';

/** Fields that hold secrets wherever they appear (accounts.key, platforms.*.apiKeys). */
const SECRET_FIELDS = new Set(['jwtSecret', 'key', 'apiKeys']);
const MASK = '(set)';

/** `scheme://user:password@host…` (MongoDB, NATS, proxy URLs, several hosts allowed). */
const CREDENTIALS = /^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i;

/** The configuration as indented JSON. */
export function configView(config: Config): string {
  return JSON.stringify(
    config,
    (field, value: unknown) => {
      if (SECRET_FIELDS.has(field)) {
        const empty = value === undefined || (Array.isArray(value) && value.length === 0);
        return empty ? value : MASK;
      }
      return typeof value === 'string' ? value.replace(CREDENTIALS, `$1:${MASK}@`) : value;
    },
    2,
  );
}
