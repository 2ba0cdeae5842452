/**
 * The raw evidence of web sub tasks (crawler/web/evidence-log.ts): the NDJSON
 * of what the page sent and every frame its stream carried, gzip-compressed,
 * one document per attempt that reported, in the `evidence` collection under
 * a random 128-bit id. It is served to the task's owner only
 * (`…/task/result/{taskId}/{subTaskId}/raw`: the route checks the owner, so
 * the id is no capability) and removed with its sub task (services/shared/subtasks/retention.ts).
 */
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Schema, type Connection, type Model } from 'mongoose';

const gzipAsync = promisify(gzip);

/** Below MongoDB's 16 MiB document limit, with room for the other fields. */
export const MAX_EVIDENCE_GZIP_BYTES = 15 * 1024 * 1024;

interface EvidenceDoc {
  _id: string;
  subTaskId: string;
  /** gzip of the NDJSON. */
  gzip: Buffer;
  /** Bytes of the NDJSON before compression. */
  size: number;
  createdAt: number;
}

export interface StoredEvidence {
  id: string;
  subTaskId: string;
  gzip: Buffer;
  size: number;
  createdAt: number;
}

const schema = new Schema<EvidenceDoc>(
  { _id: String, subTaskId: String, gzip: Buffer, size: Number, createdAt: Number },
  { versionKey: false, collection: 'evidence' },
);
// The raw route reads a sub task's latest; retention deletes by sub task.
schema.index({ subTaskId: 1, createdAt: -1 });

export class EvidenceStore {
  private readonly model: Model<EvidenceDoc>;

  constructor(
    connection: Connection,
    private readonly maxGzipBytes = MAX_EVIDENCE_GZIP_BYTES,
  ) {
    this.model =
      (connection.models.Evidence as Model<EvidenceDoc>) ?? connection.model('Evidence', schema);
  }

  async ensureIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  /**
   * Stores one attempt's NDJSON and returns its id. Evidence too large for a
   * document keeps its first lines and says so in a last `note` line.
   */
  async save(ndjson: string, subTaskId: string, now: number): Promise<string> {
    const id = randomBytes(16).toString('hex');
    const { gzip: packed, size } = await compressWithin(ndjson, this.maxGzipBytes);
    await this.model.collection.insertOne({
      _id: id,
      subTaskId,
      gzip: packed,
      size,
      createdAt: now,
    } as never);
    return id;
  }

  /** The latest evidence of a sub task (its last attempt that reported), or undefined. */
  async latestOf(subTaskId: string): Promise<StoredEvidence | undefined> {
    const doc = await this.model.collection.findOne(
      { subTaskId },
      { sort: { createdAt: -1, _id: -1 } },
    );
    if (!doc) return undefined;
    return {
      id: doc._id as unknown as string,
      subTaskId: doc.subTaskId as string,
      gzip: toBuffer(doc.gzip),
      size: doc.size as number,
      createdAt: doc.createdAt as number,
    };
  }

  /** Which of these sub tasks have evidence. */
  async withEvidence(subTaskIds: readonly string[]): Promise<Set<string>> {
    if (subTaskIds.length === 0) return new Set();
    const ids = (await this.model.collection.distinct('subTaskId', {
      subTaskId: { $in: [...subTaskIds] },
    })) as string[];
    return new Set(ids);
  }
}

async function compressWithin(
  ndjson: string,
  maxBytes: number,
): Promise<{ gzip: Buffer; size: number }> {
  const lines = ndjson.split('\n').filter((l) => l !== '');
  let text = ndjson;
  for (let keep = lines.length; ; keep = Math.floor(keep / 2)) {
    if (keep < lines.length) {
      const note = JSON.stringify({
        t: 0,
        kind: 'note',
        text: `evidence cut to its first ${keep} of ${lines.length} lines to fit the store`,
      });
      text = [...lines.slice(0, keep), note].join('\n') + '\n';
    }
    const packed = await gzipAsync(Buffer.from(text, 'utf8'));
    if (packed.length <= maxBytes || keep === 0)
      return { gzip: packed, size: Buffer.byteLength(text) };
  }
}

/** The driver hands back BSON Binary for Buffer fields. */
function toBuffer(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  const bin = value as { buffer: Uint8Array; position: number };
  return Buffer.from(bin.buffer.subarray(0, bin.position));
}

/**
 * The absolute URL of a sub task's raw evidence, or null when none is stored
 * (`have`: the sub tasks with evidence); result views and callback bodies alike.
 */
export function rawEvidenceUrl(
  have: ReadonlySet<string>,
  base: string,
  taskId: string,
  subTaskId: string,
): string | null {
  return have.has(subTaskId)
    ? `${base}/api/business/monitor/task/result/${taskId}/${subTaskId}/raw`
    : null;
}
