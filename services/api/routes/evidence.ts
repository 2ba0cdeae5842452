/**
 * Evidence bundles (services/api/evidence/): a sub task's or a whole task's
 * signed tar, to the task's owner only (the `tasks` lookups answer another
 * user's task as a missing one), and the public keys that verify them at
 * `/.well-known/jwks.json`. The first read happens before any header is
 * sent, so an unknown task is the standard JSON 404; a failure later can
 * only cut the download short.
 */
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { pack as tarPack, type Pack } from 'tar-stream';
import type { Clock } from '../../shared/clock.js';
import type { EvidenceFacts, EvidencePage } from '../../shared/evidence-facts.js';
import type { PublicKeySet, SigningKey } from '../../shared/evidence-keys.js';
import { PATHS } from '../../shared/contracts/http-paths.js';
import type { Backend } from '../backend.js';
import { baseUrl } from '../base-url.js';
import type { Logger } from '../middleware/errors.js';
import type { EvidenceReader } from '../raw-evidence.js';
import { writeSubTaskBundle, writeTaskBundle, type BundleSources } from '../evidence/bundle.js';

const gunzipAsync = promisify(gunzip);

/** Sub tasks per `tasks.evidencePage` call: one page's files at most are held at once. */
export const EVIDENCE_PAGE_SIZE = 50;

/** The signing keys as the api uses them (services/shared/evidence-keys.ts). */
export interface EvidenceKeySource {
  signingKey(): Promise<SigningKey>;
  publicSet(): Promise<PublicKeySet>;
}

export interface EvidenceRouteDeps {
  backend: Backend;
  evidence: EvidenceReader;
  screenshot: (id: string) => Promise<Buffer | undefined>;
  keys: EvidenceKeySource;
  clock: Clock;
  logger: Logger;
  /** PUBLIC_BASE_URL: the base of result.json's links, as of the result route's. */
  publicBaseUrl: string | undefined;
}

/** The public key set: no token, as anyone checking a bundle needs it. */
export function jwksRoutes(keys: EvidenceKeySource): Router {
  const router = new Router();
  router.get(PATHS.JWKS, async (ctx) => {
    ctx.type = 'application/jwk-set+json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = await keys.publicSet();
  });
  return router;
}

export function evidenceRoutes(d: EvidenceRouteDeps): Router {
  const router = new Router();
  const sources = (ctx: Context) => bundleSources(d, baseUrl(ctx, d.publicBaseUrl));

  router.get(PATHS.TASK_EVIDENCE, async (ctx) => {
    const page = (afterSeq: number) =>
      d.backend.call<EvidencePage>('tasks.evidencePage', {
        userId: ctx.state.userId as number,
        taskId: ctx.params.taskId,
        afterSeq,
        limit: EVIDENCE_PAGE_SIZE,
      });
    const first = await page(-1);
    stream(ctx, d.logger, `evidence-${first.taskId}.tar`, (pack) =>
      writeTaskBundle(pack, first, page, EVIDENCE_PAGE_SIZE, sources(ctx)),
    );
  });

  router.get(PATHS.SUBTASK_EVIDENCE, async (ctx) => {
    const facts = await d.backend.call<EvidenceFacts>('tasks.evidenceFacts', {
      userId: ctx.state.userId as number,
      taskId: ctx.params.taskId,
      subTaskId: ctx.params.subTaskId,
    });
    stream(ctx, d.logger, `evidence-${facts.subTaskId}.tar`, (pack) =>
      writeSubTaskBundle(pack, facts, sources(ctx)),
    );
  });

  return router;
}

function bundleSources(d: EvidenceRouteDeps, base: string): BundleSources {
  return {
    base,
    rawEvidence: async (subTaskId) => {
      const stored = await d.evidence.latestOf(subTaskId);
      return stored && (await gunzipAsync(stored.gzip));
    },
    screenshot: d.screenshot,
    // A manifest without the label beats no bundle: an accounts outage leaves it null.
    accountLabels: (ids) =>
      d.backend.call<Record<string, string>>('accounts.labels', { ids }).catch(() => ({})),
    signingKey: () => d.keys.signingKey(),
    now: () => d.clock.now(),
  };
}

function stream(ctx: Context, logger: Logger, fileName: string, write: (p: Pack) => Promise<void>) {
  const pack = tarPack();
  const out = new PassThrough();
  pack.pipe(out);
  ctx.status = 200;
  ctx.type = 'application/x-tar';
  ctx.set('Content-Disposition', `attachment; filename="${fileName}"`);
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = out;
  // A client that hangs up ends the writer too: its next entry fails instead of waiting forever.
  out.once('close', () => pack.destroy());
  write(pack).catch((err: Error) => {
    if (out.destroyed) return;
    logger.warn(`evidence bundle ${fileName} failed: ${err.message}`);
    pack.destroy(err);
    out.destroy(err);
  });
}
