/**
 * The access token of this tab. sessionStorage: it ends with the tab, and the
 * API key itself is never stored (only exchanged once for a token).
 */
const KEY = 'monitor.token';

export const session = {
  token(): string | null {
    return sessionStorage.getItem(KEY);
  },
  set(token: string): void {
    sessionStorage.setItem(KEY, token);
  },
  clear(): void {
    sessionStorage.removeItem(KEY);
  },
};
