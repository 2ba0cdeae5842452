/**
 * One active instance of a service (the scheduler, the monitors): a lock document in `locks` with an owner and an
 * expiry. The owner renews it well before expiry; a standby takes it over once
 * it has expired, so a dead leader is replaced within one TTL plus one check.
 */
import { Schema, type Connection, type Model } from 'mongoose';
import { claims } from './claim.js';

interface LockDoc {
  _id: string;
  owner: string;
  expiresAt: number;
}

/** The owner's node id is both its token and its name. */
const lockClaims = claims({ token: 'owner', holder: 'owner', expiresAt: 'expiresAt' });

const schema = new Schema<LockDoc>(
  { _id: String, owner: String, expiresAt: Number },
  { versionKey: false, collection: 'locks' },
);

export class LeaderLock {
  private readonly model: Model<LockDoc>;

  constructor(
    connection: Connection,
    private readonly name: string,
  ) {
    this.model = (connection.models.Lock as Model<LockDoc>) ?? connection.model('Lock', schema);
  }

  /** Takes or keeps the lock; true when `owner` holds it until now + ttl. */
  async acquire(owner: string, now: number, ttlMs: number): Promise<boolean> {
    try {
      const doc = await this.model
        .findOneAndUpdate(
          { _id: this.name, ...lockClaims.takeable(owner, now) },
          { $set: lockClaims.take(owner, owner, now + ttlMs) },
          { upsert: true, returnDocument: 'after' },
        )
        .lean<LockDoc>();
      return doc?.owner === owner;
    } catch (err) {
      // The upsert collides with a live lock held by someone else.
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  async release(owner: string): Promise<void> {
    await this.model.deleteOne({ _id: this.name, ...lockClaims.heldWith(owner) });
  }
}
