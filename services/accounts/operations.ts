/**
 * What the `accounts` service does, apart from its wiring: claims and
 * releases for the scheduler and crawler nodes, and the operator's account
 * management. Rules are in policy.ts, I/O in store.ts, sealing in cipher.ts.
 */
import { randomUUID } from 'node:crypto';
import type {
  AccountState,
  AccountVerdict,
  CheckedOutAccount,
  HumanKind,
  CheckoutRequest,
  ClaimAnswer,
  ClaimRequest,
  CoverageAnswer,
  ReleaseRequest,
  StorageState,
  UsableAnswer,
} from '../shared/contracts/accounts.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { ScreenshotStore } from '../shared/screenshots.js';
import { missingKeyError, open, requireKey, seal } from './cipher.js';
import type { AccountDoc } from './models.js';
import type { PacingTable } from './pacing.js';
import {
  afterRelease,
  identityFor,
  isUsable,
  keepsRunState,
  noneUsable,
  type Wanted,
} from './policy.js';
import type { AccountStore } from './store.js';
import { asStorageState } from './storage-state.js';
import { accountView, type AccountView } from './view.js';
import { canonical, checkNew, checkVerdict, claimed, type NewAccount } from './validate.js';

export interface AccountsDeps {
  store: AccountStore;
  screenshots: ScreenshotStore;
  clock: Clock;
  pacing: PacingTable;
  key: Buffer | undefined;
  holdMs: number;
  gapJitter: number;
  /** In [0, 1): the pacing jitter's draw. */
  random: () => number;
  /** Where screenshot URLs point (the api's public address). */
  screenshotBase: string;
}

/** Operator states: `healthy` enables, `disabled` disables, `needs_human` records a failed check. */
export interface StateChange {
  id: string;
  state: Exclude<AccountState, 'cooling'>;
  reason?: string;
  /** needs_human: what a person must do (default: a login wall). */
  kind?: HumanKind;
  screenshotPng?: string;
}

export class Accounts {
  constructor(private readonly d: AccountsDeps) {}

  async claim(r: ClaimRequest): Promise<ClaimAnswer> {
    if (!this.d.key) return { account: null, reason: missingKeyError().message };
    const w: Wanted = {
      platform: r.platform,
      regionCode: r.regionCode,
      ports: r.ports,
      avoid: r.avoid ?? [],
    };
    const now = this.d.clock.now();
    const pacing = this.d.pacing(r.platform);
    const doc = await this.d.store.claim(w, r.holder, now, this.d.holdMs, pacing);
    if (doc) return { account: claimed(doc) };
    const all = (await this.d.store.list(r.platform)).filter(
      (a) => r.regionCode === null || a.regionCode === r.regionCode,
    );
    return { account: null, reason: noneUsable(all, w, now, pacing) };
  }

  async checkout(r: CheckoutRequest): Promise<CheckedOutAccount> {
    const key = requireKey(this.d.key);
    const doc = await this.d.store.findHeld(r.id, r.holder);
    if (!doc) throw AppError.notFound(`account ${r.id} held by ${r.holder}`);
    return this.identity(doc, key);
  }

  /**
   * An operator's hold of one named account (`driver-check`): like a claim it
   * keeps the cluster off the account until released, but it ignores pacing
   * and state, which are what the operator is checking.
   */
  async hold(r: CheckoutRequest): Promise<CheckedOutAccount> {
    const key = requireKey(this.d.key);
    const account = await this.get(r.id);
    const doc = await this.d.store.hold(account._id, r.holder, this.d.clock.now(), this.d.holdMs);
    if (!doc) {
      throw new AppError(
        `account ${r.id} is running a sub task (held by ${account.holder}); try again when it is free`,
        409,
        'CONFLICT',
      );
    }
    return this.identity(doc, key);
  }

  /** The operator's look at an account's login (`account check`), without holding it. */
  async readState(id: string): Promise<CheckedOutAccount> {
    return this.identity(await this.get(id), requireKey(this.d.key));
  }

  async release(r: ReleaseRequest): Promise<{ ok: boolean }> {
    checkVerdict(r.verdict);
    const sealed =
      r.storageState === undefined
        ? undefined
        : seal(JSON.stringify(asStorageState(r.storageState)), requireKey(this.d.key));
    if (!(await this.d.store.findHeld(r.id, r.holder))) return { ok: false };
    const screenshotId = await this.screenshotOf(r.id, r.verdict);
    const now = this.d.clock.now();
    let before: string | null = null;
    const ok = await this.d.store.release(r.id, r.holder, (doc) => {
      before = doc.screenshotId;
      return {
        ...afterRelease(
          doc,
          { verdict: r.verdict, prompted: r.prompted, screenshotId },
          now,
          this.d.pacing(doc.platform),
          this.d.gapJitter,
          this.d.random(),
        ),
        ...(sealed !== undefined && keepsRunState(doc.state, r.verdict)
          ? { stateCipher: sealed }
          : {}),
      };
    });
    await this.dropScreenshot(ok ? before : screenshotId, ok ? screenshotId : null);
    return { ok };
  }

  async usable(): Promise<UsableAnswer> {
    const counts: Record<string, number> = {};
    if (!this.d.key) return { counts };
    const now = this.d.clock.now();
    for (const a of await this.d.store.candidates()) {
      if (!isUsable(a, now, this.d.pacing(a.platform))) continue;
      const k = `${a.platform}|${a.regionCode ?? ''}`;
      counts[k] = (counts[k] ?? 0) + 1;
    }
    return { counts };
  }

  async coverage(): Promise<CoverageAnswer> {
    const regions: CoverageAnswer['regions'] = {};
    if (!this.d.key) return { regions };
    for (const a of await this.d.store.candidates()) {
      const seen = (regions[a.platform] ??= []);
      if (!seen.includes(a.regionCode)) seen.push(a.regionCode);
    }
    return { regions };
  }

  async add(n: NewAccount): Promise<AccountView> {
    const { platform, label, regionCode } = checkNew(n);
    const cipher = n.storageState === undefined ? null : this.sealState(n.storageState);
    const now = this.d.clock.now();
    const doc: AccountDoc = {
      _id: randomUUID(),
      platform,
      label,
      regionCode,
      proxyKey: null,
      state: cipher === null ? 'needs_human' : 'healthy',
      coolUntil: null,
      reason: cipher === null ? 'no login stored yet: run account login or account import' : null,
      humanKind: cipher === null ? 'login_wall' : null,
      screenshotId: null,
      stateCipher: cipher,
      holder: null,
      heldUntil: null,
      lastUsedAt: null,
      nextUseAt: 0,
      usage: [],
      createdAt: now,
    };
    if (!(await this.d.store.insert(doc))) {
      throw AppError.invalid([
        { field: 'label', message: `${platform} already has an account labelled ${label}` },
      ]);
    }
    return this.view(doc);
  }

  /** Stores a login under the label: a new account, or the existing one's state replaced. */
  async import(n: NewAccount & { storageState: unknown }): Promise<AccountView> {
    const { platform, label, regionCode } = checkNew(n);
    const existing = await this.d.store.findByLabel(platform, label);
    if (!existing) return this.add(n);
    const moved = n.regionCode !== undefined && regionCode !== existing.regionCode;
    return this.storeState(
      existing._id,
      n.storageState,
      moved ? { regionCode, proxyKey: null } : {},
    );
  }

  /** A fresh login for the account: healthy again, unless an operator disabled it. */
  async storeState(
    id: string,
    storageState: unknown,
    extra: Partial<AccountDoc> = {},
  ): Promise<AccountView> {
    const cipher = this.sealState(storageState);
    const current = await this.get(id);
    const doc = await this.d.store.update(id, {
      ...extra,
      stateCipher: cipher,
      ...(current.state === 'disabled'
        ? {}
        : { state: 'healthy', coolUntil: null, reason: null, humanKind: null, screenshotId: null }),
    });
    if (doc) await this.dropScreenshot(current.screenshotId, doc.screenshotId);
    return this.view(doc ?? current);
  }

  labels(ids: readonly string[]): Promise<Record<string, string>> {
    return this.d.store.labelsOf(ids);
  }

  async list(platform?: string): Promise<AccountView[]> {
    const name = platform === undefined ? undefined : canonical(platform);
    return (await this.d.store.list(name)).map((a) => this.view(a));
  }

  async setState(c: StateChange): Promise<AccountView> {
    const current = await this.get(c.id);
    let fields: Partial<AccountDoc>;
    if (c.state === 'healthy') {
      if (current.stateCipher === null) {
        throw AppError.invalid([
          { field: 'id', message: `account ${c.id} has no login stored (run account login)` },
        ]);
      }
      fields = {
        state: 'healthy',
        coolUntil: null,
        reason: null,
        humanKind: null,
        screenshotId: null,
      };
    } else if (c.state === 'disabled') {
      fields = { state: 'disabled', reason: c.reason ?? 'disabled by an operator' };
    } else {
      const verdict: AccountVerdict = {
        state: 'needs_human',
        reason: c.reason ?? 'marked by an operator',
        kind: c.kind ?? 'login_wall',
        ...(c.screenshotPng === undefined ? {} : { screenshotPng: c.screenshotPng }),
      };
      fields = {
        state: 'needs_human',
        coolUntil: null,
        reason: verdict.reason,
        humanKind: verdict.kind,
        screenshotId: await this.screenshotOf(c.id, verdict),
      };
    }
    const doc = await this.d.store.update(c.id, fields);
    if (!doc) throw AppError.notFound(`account ${c.id}`);
    await this.dropScreenshot(current.screenshotId, doc.screenshotId);
    return this.view(doc);
  }

  async remove(id: string): Promise<{ id: string; removed: true }> {
    const doc = await this.get(id);
    if (!(await this.d.store.remove(id))) throw AppError.notFound(`account ${id}`);
    await this.dropScreenshot(doc.screenshotId, null);
    return { id, removed: true };
  }

  /** An account keeps only the screenshot of its current needs_human state. */
  private async dropScreenshot(previous: string | null, current: string | null | undefined) {
    if (previous !== null && previous !== current) await this.d.screenshots.remove([previous]);
  }

  private async get(id: string): Promise<AccountDoc> {
    const doc = await this.d.store.find(id);
    if (!doc) throw AppError.notFound(`account ${id}`);
    return doc;
  }

  private view(doc: AccountDoc): AccountView {
    return accountView(doc, this.d.clock.now(), this.d.pacing(doc.platform), this.d.screenshotBase);
  }

  private sealState(value: unknown): string {
    const key = requireKey(this.d.key);
    return seal(JSON.stringify(asStorageState(value)), key);
  }

  private async identity(doc: AccountDoc, key: Buffer): Promise<CheckedOutAccount> {
    if (doc.stateCipher === null) {
      throw AppError.invalid([
        { field: 'id', message: `account ${doc._id} has no login stored (run account login)` },
      ]);
    }
    let storageState: StorageState;
    try {
      storageState = JSON.parse(open(doc.stateCipher, key)) as StorageState;
    } catch (err) {
      // Another key: no node can use the account until a person logs in again.
      await this.d.store.update(doc._id, {
        state: 'needs_human',
        reason: 'its stored login cannot be decrypted with this ACCOUNTS_KEY: log in again',
        humanKind: 'login_wall',
        holder: null,
        heldUntil: null,
      });
      throw err;
    }
    return { ...claimed(doc), storageState, ...identityFor(doc.regionCode) };
  }

  private async screenshotOf(id: string, verdict: AccountVerdict): Promise<string | null> {
    if (verdict.state !== 'needs_human' || !verdict.screenshotPng) return null;
    const png = Buffer.from(verdict.screenshotPng, 'base64');
    return this.d.screenshots.save(png, `account:${id}`, this.d.clock.now());
  }
}
