/**
 * Each account's logged-in page, kept open on its node between the account's
 * sub tasks, as a person keeps their chat tab: the next prompt loads the
 * site's start page again in it (a new chat) instead of building a browser
 * context and logging it in again; the warm context keeps the site's cache and
 * session, so the reload is most of what is saved (a web sub task's own time).
 *
 * A kept page is reused only while it still fits: the same proxy port, the
 * same allowed origins, locale and time zone, and the storage state the account service hands out
 * unchanged since the page last saved it (an operator's new login replaces
 * the page). A page whose attempt failed in any way is closed, so a challenge,
 * a half-sent prompt or a dead proxy never carries over. At most `max` pages
 * stay open (the least recently used idle one goes first) and none stays idle
 * longer than `idleMs`.
 */
import { createHash } from 'node:crypto';
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import type { KeptPage } from '../browser.js';

export interface KeptPagesOptions {
  /** How many pages may stay open while idle; 0 keeps none. */
  max: number;
  idleMs: number;
  now?: () => number;
}

interface Entry {
  kept: KeptPage;
  fit: string;
  busy: boolean;
  lastUsed: number;
}

export interface TakenPage {
  kept: KeptPage;
  /** Whether it is the account's page from an earlier sub task. */
  reused: boolean;
}

export class KeptPages {
  private readonly byAccount = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(private readonly o: KeptPagesOptions) {
    this.now = o.now ?? Date.now;
  }

  get size(): number {
    return this.byAccount.size;
  }

  /**
   * The account's kept page if it fits `fit` and is usable, else a new one
   * from `open` (replacing the old). A page already in use (an account runs
   * one sub task at a time, so only after a lost release) is not shared: the
   * caller gets its own page, kept afterwards only if the slot is free.
   */
  async take(accountId: string, fit: string, open: () => Promise<KeptPage>): Promise<TakenPage> {
    await this.sweep();
    const entry = this.byAccount.get(accountId);
    if (entry && !entry.busy) {
      if (entry.fit === fit && entry.kept.usable()) {
        entry.busy = true;
        return { kept: entry.kept, reused: true };
      }
      this.byAccount.delete(accountId);
      await entry.kept.close();
    }
    return { kept: await open(), reused: false };
  }

  /**
   * After the attempt: a page that served it well is kept under its new fit
   * (the state it saved); any other is closed.
   */
  async giveBack(accountId: string, kept: KeptPage, fit: string, healthy: boolean): Promise<void> {
    const entry = this.byAccount.get(accountId);
    const mine = entry?.kept === kept;
    if (!healthy || !kept.usable() || this.o.max === 0 || (entry && !mine)) {
      if (mine) this.byAccount.delete(accountId);
      await kept.close();
      return;
    }
    this.byAccount.set(accountId, { kept, fit, busy: false, lastUsed: this.now() });
    await this.sweep();
  }

  /** Closes idle pages past their time and, beyond `max`, the least recently used. */
  async sweep(): Promise<void> {
    const idle = [...this.byAccount.entries()]
      .filter(([, e]) => !e.busy)
      .sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    let over = this.byAccount.size - this.o.max;
    const closing: Promise<void>[] = [];
    for (const [id, e] of idle) {
      if (over <= 0 && this.now() - e.lastUsed < this.o.idleMs) continue;
      this.byAccount.delete(id);
      over -= 1;
      closing.push(e.kept.close());
    }
    await Promise.all(closing);
  }

  async closeAll(): Promise<void> {
    const all = [...this.byAccount.values()];
    this.byAccount.clear();
    await Promise.all(all.map((e) => e.kept.close()));
  }
}

/** What a kept page must match to serve the next sub task of its account. */
export interface PageFit {
  proxyUrl: string | undefined;
  allowedOrigins: readonly string[];
  storageState: StorageState | undefined;
  locale: string;
  timezoneId: string;
}

/**
 * A digest of the fit. The storage state is put in a canonical order (the
 * account service may store it re-ordered) and only what identifies the
 * session counts: each cookie's domain, path, name and value, each origin's
 * local storage.
 */
export function pageFit(f: PageFit): string {
  const state = f.storageState;
  const cookies = (state?.cookies ?? [])
    .map((c) => [c.domain, c.path, c.name, c.value].join('\u0000'))
    .sort();
  const origins = (state?.origins ?? [])
    .map((o) => [
      o.origin,
      ...o.localStorage.map((item) => `${item.name}\u0000${item.value}`).sort(),
    ])
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
  return createHash('sha256')
    .update(
      JSON.stringify([
        f.proxyUrl ?? null,
        [...f.allowedOrigins].sort(),
        f.locale,
        f.timezoneId,
        cookies,
        origins,
      ]),
    )
    .digest('base64url');
}
