/**
 * Raw evidence of web sub tasks (services/shared/evidence.ts) on the api:
 * `GET …/task/result/{taskId}/{subTaskId}/raw` serves the NDJSON of the sub
 * task's latest reported attempt to the task's owner, and result views link
 * it as `rawEvidence`. Ownership is the `tasks` service's sub task lookup, so
 * another user's sub task is the same 404 as one that does not exist.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Context } from 'koa';
import { AppError } from '../shared/errors.js';
import type { Backend } from './backend.js';
import { rawEvidenceUrl } from '../shared/evidence.js';

const gunzipAsync = promisify(gunzip);

/** What the api reads of the evidence store. */
export interface EvidenceReader {
  latestOf(subTaskId: string): Promise<{ gzip: Buffer } | undefined>;
  withEvidence(subTaskIds: readonly string[]): Promise<Set<string>>;
}

/** Sets `rawEvidence` on each sub task view: the absolute raw URL, or null. */
export async function linkRawEvidence(
  evidence: EvidenceReader,
  taskId: string,
  subs: { subTaskId: string; rawEvidence?: string | null }[],
  base: string,
): Promise<void> {
  const have = await evidence.withEvidence(subs.map((s) => s.subTaskId));
  for (const s of subs) s.rawEvidence = rawEvidenceUrl(have, base, taskId, s.subTaskId);
}

/**
 * The raw route's body: gzip as stored when the client accepts it (most
 * clients do, and it is 5 to 10 times smaller), else decompressed here.
 */
export async function serveRawEvidence(
  ctx: Context,
  backend: Backend,
  evidence: EvidenceReader,
  params: { userId: number; taskId: string | undefined; subTaskId: string | undefined },
): Promise<void> {
  const sub = await backend.call<{ subTaskId: string }>('tasks.subTaskResult', params);
  const raw = await evidence.latestOf(sub.subTaskId);
  if (!raw) throw AppError.notFound('raw evidence');
  ctx.set('Vary', 'Accept-Encoding');
  ctx.set('Cache-Control', 'private, no-store');
  ctx.type = 'application/x-ndjson; charset=utf-8';
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = raw.gzip;
  } else {
    ctx.body = await gunzipAsync(raw.gzip);
  }
}
