/**
 * MongoDB I/O for accounts, within what every MongoDB-wire server does (no
 * transactions, no change streams): each change is one single-document
 * update. A claim is one findOneAndUpdate whose filter is "usable now"
 * (policy.ts), so two claims can never both take an account; every later
 * write of the holder is guarded by `holder`.
 */
import type { Model } from 'mongoose';
import type { AccountDoc } from './models.js';
import { claimFilter, leastUsedPort, type Wanted } from './policy.js';
import type { Pacing } from './pacing.js';

/** How often a release re-reads an account that an operator changed under it. */
const RELEASE_TRIES = 5;

export class AccountStore {
  constructor(private readonly model: Model<AccountDoc>) {}

  async ensureIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  /** Holds one usable account for `holder`, pinning its port on first use; undefined: none. */
  async claim(
    w: Wanted,
    holder: string,
    now: number,
    holdMs: number,
    pacing: Pacing,
  ): Promise<AccountDoc | undefined> {
    const doc = await this.model
      .findOneAndUpdate(
        claimFilter(w, now, pacing),
        { $set: { holder, heldUntil: now + holdMs } },
        // Least recently used first spreads the prompts over the accounts.
        {
          sort: { lastUsedAt: 1, createdAt: 1 },
          returnDocument: 'after',
          projection: { stateCipher: 0 },
        },
      )
      .lean<AccountDoc>();
    if (!doc) return undefined;
    if (doc.regionCode !== null && doc.proxyKey === null) {
      const pinned = await this.model
        .find({ proxyKey: { $in: [...w.ports] } }, { proxyKey: 1 })
        .lean<{ proxyKey: string }[]>();
      const port = leastUsedPort(
        w.ports,
        pinned.map((p) => p.proxyKey),
      );
      if (port !== undefined) {
        await this.model.updateOne(
          { _id: doc._id, holder, proxyKey: null },
          { $set: { proxyKey: port } },
        );
        doc.proxyKey = port;
      }
    }
    return doc;
  }

  /**
   * Holds the named account for `holder` whatever its pacing or state (an
   * operator's driver check), as long as nobody else holds it; undefined: held.
   */
  async hold(
    id: string,
    holder: string,
    now: number,
    holdMs: number,
  ): Promise<AccountDoc | undefined> {
    const doc = await this.model
      .findOneAndUpdate(
        { _id: id, $or: [{ holder: null }, { heldUntil: { $lt: now } }] },
        { $set: { holder, heldUntil: now + holdMs } },
        { returnDocument: 'after' },
      )
      .lean<AccountDoc>();
    return doc ?? undefined;
  }

  async find(id: string): Promise<AccountDoc | undefined> {
    return (await this.model.findById(id).lean<AccountDoc>()) ?? undefined;
  }

  async findByLabel(platform: string, label: string): Promise<AccountDoc | undefined> {
    return (await this.model.findOne({ platform, label }).lean<AccountDoc>()) ?? undefined;
  }

  /** The account when `holder` holds it. */
  async findHeld(id: string, holder: string): Promise<AccountDoc | undefined> {
    return (await this.model.findOne({ _id: id, holder }).lean<AccountDoc>()) ?? undefined;
  }

  /**
   * Frees the hold with the fields `change` computes from the current
   * document; the write is guarded by holder and state, so an operator's
   * disable in between is read again, not overwritten. false: not held by `holder`.
   */
  async release(
    id: string,
    holder: string,
    change: (doc: AccountDoc) => Partial<AccountDoc>,
  ): Promise<boolean> {
    for (let i = 0; i < RELEASE_TRIES; i++) {
      const doc = await this.findHeld(id, holder);
      if (!doc) return false;
      const res = await this.model.updateOne(
        { _id: id, holder, state: doc.state },
        { $set: change(doc) },
      );
      if (res.modifiedCount === 1) return true;
    }
    return false;
  }

  /** Accounts that may be usable (healthy or cooling, with a state). */
  async candidates(): Promise<AccountDoc[]> {
    return this.model
      .find({ state: { $in: ['healthy', 'cooling'] }, stateCipher: { $ne: null } })
      .lean<AccountDoc[]>();
  }

  /** The labels of these accounts, by id (an evidence manifest names the account by label). */
  async labelsOf(ids: readonly string[]): Promise<Record<string, string>> {
    const docs = await this.model
      .find({ _id: { $in: [...ids] } }, { label: 1 })
      .lean<Pick<AccountDoc, '_id' | 'label'>[]>();
    return Object.fromEntries(docs.map((d) => [d._id, d.label]));
  }

  async list(platform?: string): Promise<AccountDoc[]> {
    return this.model
      .find(platform === undefined ? {} : { platform })
      .sort({ platform: 1, label: 1 })
      .lean<AccountDoc[]>();
  }

  /** false: the platform already has an account with this label. */
  async insert(doc: AccountDoc): Promise<boolean> {
    try {
      await this.model.collection.insertOne(doc as never);
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  async update(id: string, fields: Partial<AccountDoc>): Promise<AccountDoc | undefined> {
    return (
      (await this.model
        .findOneAndUpdate({ _id: id }, { $set: fields }, { returnDocument: 'after' })
        .lean<AccountDoc>()) ?? undefined
    );
  }

  async remove(id: string): Promise<boolean> {
    return (await this.model.deleteOne({ _id: id })).deletedCount === 1;
  }
}
