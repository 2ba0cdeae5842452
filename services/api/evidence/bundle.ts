/**
 * Evidence bundles written into a tar (tar-stream): per sub task its stored
 * result, the request as sent (credentials removed), the raw stream frames,
 * the answer's DOM snapshot (web channel), the screenshots, `manifest.json` with the SHA-256 of each and
 * `manifest.jws`, the manifest's exact bytes signed with the active Ed25519
 * key. A whole task puts each sub task in its own folder and ends with a
 * top manifest of their manifests' hashes. Each entry waits for the pack to
 * take it, so a slow reader holds the writer back and memory stays at one
 * sub task's files.
 */
import { CompactSign } from 'jose';
import type { Pack } from 'tar-stream';
import type { EvidenceFacts, EvidencePage } from '../../shared/evidence-facts.js';
import { EVIDENCE_ALG, type SigningKey } from '../../shared/evidence-keys.js';
import { VERSION } from '../../shared/version.js';
import { rawEvidenceUrl } from '../../shared/evidence.js';
import { absoluteScreenshot } from '../../shared/task-views.js';
import {
  manifestBytes,
  sha256,
  subTaskManifest,
  taskManifest,
  type BundleFile,
} from './manifest.js';
import { answerHtml } from './answer-html.js';
import { requestsSent } from './redact.js';

export interface BundleSources {
  /** The base of the absolute links in result.json, as the result route gives them. */
  base: string;
  /** The NDJSON of a sub task's latest raw evidence, or undefined. */
  rawEvidence(subTaskId: string): Promise<Buffer | undefined>;
  screenshot(id: string): Promise<Buffer | undefined>;
  /** Account labels by id; an empty answer when they cannot be read. */
  accountLabels(ids: readonly string[]): Promise<Record<string, string>>;
  signingKey(): Promise<SigningKey>;
  now(): number;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2) + '\n', 'utf8');

/**
 * The result exactly as `GET …/task/result/{taskId}/{subTaskId}` serves it
 * (result-views.ts): absolute screenshot links and the raw evidence link on
 * the same base, in the same key order, so an auditor can compare the two.
 */
export function servedResult(facts: EvidenceFacts, hasRaw: boolean, base: string) {
  const have = new Set(hasRaw ? [facts.subTaskId] : []);
  return absoluteScreenshot(
    {
      ...facts.result,
      rawEvidence: rawEvidenceUrl(have, base, facts.taskId, facts.subTaskId),
    },
    base,
  );
}

/** The files of one sub task (names relative to its folder) and what it lacks. */
export async function subTaskFiles(
  facts: EvidenceFacts,
  sources: BundleSources,
): Promise<{ files: BundleFile[]; notes: string[] }> {
  const notes: string[] = [];
  const raw = await sources.rawEvidence(facts.subTaskId);
  const files: BundleFile[] = [
    { name: 'result.json', bytes: json(servedResult(facts, raw !== undefined, sources.base)) },
    {
      name: 'request.json',
      bytes: json({
        submitted: {
          platform: facts.platform,
          channel: facts.channel,
          mode: facts.requestedMode,
          ...facts.submitted,
        },
        sent: raw ? requestsSent(raw.toString('utf8')) : null,
      }),
    },
  ];
  const answer = raw && answerHtml(raw.toString('utf8'));
  if (answer) files.push({ name: 'answer.html', bytes: answer });
  else if (facts.channel === 'web')
    notes.push(
      'no DOM snapshot of the answer: none is recorded for this sub task (no answer, or an attempt from before snapshots were kept)',
    );
  if (raw) files.push({ name: 'raw-frames.ndjson', bytes: raw });
  else
    notes.push(
      'no raw stream frames: none are recorded for this sub task (API channel, or no attempt reported)',
    );
  for (const [name, path] of [
    ['page-screenshot.png', facts.pageScreenshot],
    ['mention-screenshot.png', facts.mentionScreenshot],
  ] as const) {
    if (path === null) continue;
    const id = /([0-9a-f]{32})\.png$/.exec(path)?.[1];
    const png = id === undefined ? undefined : await sources.screenshot(id);
    if (png) files.push({ name, bytes: png });
    else notes.push(`${name}: the stored screenshot is gone`);
  }
  return { files, notes };
}

export async function sign(bytes: Buffer, key: SigningKey): Promise<string> {
  return new CompactSign(bytes)
    .setProtectedHeader({ alg: EVIDENCE_ALG, kid: key.kid })
    .sign(key.key);
}

/** Adds one file and waits until the pack has taken it (its back-pressure). */
export function addEntry(pack: Pack, name: string, bytes: Buffer, mtime: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, mtime, mode: 0o644 }, bytes, (err) => (err ? reject(err) : resolve()));
  });
}

/** Writes one sub task's files, manifest and signature under `prefix`; the manifest's hash. */
async function writeSubTask(
  pack: Pack,
  prefix: string,
  facts: EvidenceFacts,
  label: string | null,
  key: SigningKey,
  sources: BundleSources,
  now: number,
): Promise<string> {
  const { files, notes } = await subTaskFiles(facts, sources);
  const manifest = manifestBytes(
    subTaskManifest(facts, files, {
      accountLabel: label,
      serviceVersion: VERSION,
      bundledAt: now,
      notes,
    }),
  );
  const mtime = new Date(now);
  for (const f of files) await addEntry(pack, prefix + f.name, f.bytes, mtime);
  await addEntry(pack, `${prefix}manifest.json`, manifest, mtime);
  await addEntry(pack, `${prefix}manifest.jws`, Buffer.from(await sign(manifest, key)), mtime);
  return sha256(manifest);
}

async function labelsOf(
  facts: readonly EvidenceFacts[],
  sources: BundleSources,
): Promise<Record<string, string>> {
  const ids = [...new Set(facts.flatMap((f) => (f.accountId === null ? [] : [f.accountId])))];
  return ids.length === 0 ? {} : sources.accountLabels(ids);
}

/** One sub task's bundle: its files at the top of the archive. */
export async function writeSubTaskBundle(
  pack: Pack,
  facts: EvidenceFacts,
  sources: BundleSources,
): Promise<void> {
  const [labels, key] = await Promise.all([labelsOf([facts], sources), sources.signingKey()]);
  const label = facts.accountId === null ? null : (labels[facts.accountId] ?? null);
  await writeSubTask(pack, '', facts, label, key, sources, sources.now());
  pack.finalize();
}

/**
 * A whole task's bundle, page by page (`next` reads the page after a `seq`):
 * each sub task in its folder, then the signed top manifest.
 */
export async function writeTaskBundle(
  pack: Pack,
  first: EvidencePage,
  next: (afterSeq: number) => Promise<EvidencePage>,
  pageSize: number,
  sources: BundleSources,
): Promise<void> {
  const key = await sources.signingKey();
  const now = sources.now();
  const listed: { subTaskId: string; manifestSha256: string }[] = [];
  for (let page = first; ;) {
    const labels = await labelsOf(page.items, sources);
    for (const facts of page.items) {
      const label = facts.accountId === null ? null : (labels[facts.accountId] ?? null);
      const hash = await writeSubTask(pack, `${facts.subTaskId}/`, facts, label, key, sources, now);
      listed.push({ subTaskId: facts.subTaskId, manifestSha256: hash });
    }
    const last = page.items.at(-1);
    if (!last || page.items.length < pageSize) break;
    page = await next(last.seq);
  }
  const manifest = manifestBytes(taskManifest(first.taskId, listed, VERSION, now));
  const mtime = new Date(now);
  await addEntry(pack, 'manifest.json', manifest, mtime);
  await addEntry(pack, 'manifest.jws', Buffer.from(await sign(manifest, key)), mtime);
  pack.finalize();
}
