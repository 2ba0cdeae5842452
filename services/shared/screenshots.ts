/**
 * Screenshots are PNG bytes in the `screenshots` collection, one document
 * each, under a random 128-bit id: the unguessable id in the URL is the
 * capability to read it, so the URL works in a browser without a token.
 */
import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { PATHS, pathTo } from './contracts/http-paths.js';

interface ScreenshotDoc {
  _id: string;
  png: Buffer;
  subTaskId: string;
  createdAt: number;
}

const schema = new Schema<ScreenshotDoc>(
  { _id: String, png: Buffer, subTaskId: String, createdAt: Number },
  { versionKey: false, collection: 'screenshots' },
);
schema.index({ createdAt: 1 });

export class ScreenshotStore {
  private readonly model: Model<ScreenshotDoc>;

  constructor(connection: Connection) {
    this.model =
      (connection.models.Screenshot as Model<ScreenshotDoc>) ??
      connection.model('Screenshot', schema);
  }

  async ensureIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async save(png: Buffer, subTaskId: string, now: number): Promise<string> {
    const id = randomBytes(16).toString('hex');
    await this.model.collection.insertOne({ _id: id, png, subTaskId, createdAt: now } as never);
    return id;
  }

  /** Screenshots no record points to any more (an account's, once a person dealt with it). */
  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.model.deleteMany({ _id: { $in: [...ids] } });
  }

  async load(id: string): Promise<Buffer | undefined> {
    if (!/^[0-9a-f]{32}$/.test(id)) return undefined;
    const doc = await this.model.findById(id).lean<{ png: { buffer: ArrayBuffer } | Buffer }>();
    if (!doc) return undefined;
    const png = doc.png as unknown;
    // lean() hands back BSON Binary; normalise to a Buffer.
    if (Buffer.isBuffer(png)) return png;
    const bin = png as { buffer: Uint8Array };
    return Buffer.from(bin.buffer);
  }
}

/** Stored on the sub task as a path; the api makes it absolute for the caller. */
export function screenshotPath(id: string): string {
  return pathTo(PATHS.SCREENSHOT, { file: `${id}.png` });
}
