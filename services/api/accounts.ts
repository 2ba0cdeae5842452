/**
 * The cluster's web-channel accounts, as the operator route and the metrics
 * read them. A cluster without the web channel runs no accounts service: it
 * has no accounts, which is not an error.
 */
import type { Backend } from './backend.js';

export async function listAccounts<T>(backend: Backend): Promise<T[]> {
  return backend.call<T[]>('accounts.list', {}).catch((err: { type?: string }) => {
    if (err.type === 'SERVICE_NOT_FOUND') return [];
    throw err;
  });
}
