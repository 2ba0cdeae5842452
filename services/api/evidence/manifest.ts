/**
 * The manifests of evidence bundles, pure: the files of one sub task with
 * their SHA-256, the facts they were taken under, and the whole task's list
 * of sub task manifests. The JSON is serialised once and signed as those
 * exact bytes (bundle.ts), so a verifier compares bytes, never re-serialises.
 */
import { createHash } from 'node:crypto';
import type { EvidenceFacts } from '../../shared/evidence-facts.js';

export const BUNDLE_FORMAT = 'aimon-evidence/1';

export interface BundleFile {
  name: string;
  bytes: Buffer;
}

export interface FileEntry {
  name: string;
  size: number;
  sha256: string;
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function fileEntry(file: BundleFile): FileEntry {
  return { name: file.name, size: file.bytes.length, sha256: sha256(file.bytes) };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export interface ManifestContext {
  accountLabel: string | null;
  serviceVersion: string;
  bundledAt: number;
  /** What the bundle lacks and why (no stream recorded, no DOM snapshot stored, …). */
  notes: string[];
}

/** The manifest of one sub task: its facts and every file beside it (names relative to its folder). */
export function subTaskManifest(
  facts: EvidenceFacts,
  files: readonly BundleFile[],
  c: ManifestContext,
) {
  return {
    format: BUNDLE_FORMAT,
    kind: 'subtask',
    taskId: facts.taskId,
    subTaskId: facts.subTaskId,
    platform: facts.platform,
    channel: facts.channel,
    mode: { requested: facts.requestedMode, effective: facts.effectiveMode },
    status: facts.status,
    modelReported: facts.result.modelReported,
    account: facts.accountId === null ? null : { label: c.accountLabel },
    regionCode: facts.submitted.regionCode,
    proxyExitAddress: facts.proxyExitAddress,
    startedAt: iso(facts.startedAt),
    endedAt: iso(facts.endedAt),
    parserVersion: facts.formatVersion,
    serviceVersion: c.serviceVersion,
    bundledAt: iso(c.bundledAt),
    notes: c.notes,
    files: files.map(fileEntry),
  };
}

/** The whole task's manifest: the hash of each sub task's manifest, in `seq` order. */
export function taskManifest(
  taskId: string,
  subTasks: readonly { subTaskId: string; manifestSha256: string }[],
  serviceVersion: string,
  bundledAt: number,
) {
  return {
    format: BUNDLE_FORMAT,
    kind: 'task',
    taskId,
    serviceVersion,
    bundledAt: iso(bundledAt),
    subTasks: subTasks.map((s) => ({
      subTaskId: s.subTaskId,
      manifest: `${s.subTaskId}/manifest.json`,
      sha256: s.manifestSha256,
    })),
  };
}

export function manifestBytes(manifest: object): Buffer {
  return Buffer.from(JSON.stringify(manifest, null, 2) + '\n', 'utf8');
}
