/**
 * A DeepSeek web account added through the real `accounts` service, with a
 * stored login (a session cookie of the site), so it is in working order.
 */
import type { ServiceBroker } from 'moleculer';
import type { StorageState } from '../../services/shared/contracts/accounts.js';

export const deepseekLogin: StorageState = {
  cookies: [
    {
      name: 'userToken',
      value: 'secret',
      domain: 'chat.deepseek.com',
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: true,
      sameSite: 'Lax',
    },
  ],
  origins: [],
};

/** Adds the account; its id. */
export async function addDeepseekAccount(
  broker: ServiceBroker,
  label: string,
  regionCode: string | null,
): Promise<string> {
  const account = await broker.call<{ id: string }, object>('accounts.add', {
    platform: 'deepseek',
    label,
    regionCode,
    storageState: deepseekLogin,
  });
  return account.id;
}
