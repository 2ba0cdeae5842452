/**
 * Offline verification of an evidence bundle (docs/evidence.md), pure: the
 * archive's files as hashes (and the bytes of manifests and signatures), and
 * a saved key set. Every signature must verify with a key of the set and
 * carry exactly the manifest's bytes; every file a manifest lists must have
 * its hash and size; a whole task's manifest must list each sub task
 * manifest's hash; and no file may be outside every manifest. Each failure
 * names its file.
 */
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';

export interface BundleEntry {
  sha256: string;
  size: number;
  /** Kept for `manifest.json` and `manifest.jws` only. */
  bytes?: Buffer;
}

export interface VerifyReport {
  verified: string[];
  failures: string[];
}

interface FileEntry {
  name: string;
  size: number;
  sha256: string;
}

/** Whether a file's bytes are needed (manifests and signatures), not only its hash. */
export function keepsBytes(name: string): boolean {
  return /(^|\/)manifest\.(json|jws)$/.test(name);
}

export async function verifyBundle(
  entries: ReadonlyMap<string, BundleEntry>,
  jwks: JSONWebKeySet,
): Promise<VerifyReport> {
  const report: VerifyReport = { verified: [], failures: [] };
  const covered = new Set<string>();
  const keys = createLocalJWKSet(jwks);
  const top = await signedManifest(entries, '', keys, report, covered);
  if (top?.kind === 'task') {
    for (const s of (top.subTasks ?? []) as {
      subTaskId: string;
      manifest: string;
      sha256: string;
    }[]) {
      const sub = entries.get(s.manifest);
      if (!sub) report.failures.push(`${s.manifest}: listed in manifest.json but missing`);
      else if (sub.sha256 !== s.sha256)
        report.failures.push(`${s.manifest}: SHA-256 differs from the one manifest.json lists`);
      const manifest = await signedManifest(entries, `${s.subTaskId}/`, keys, report, covered);
      if (manifest) checkFiles(manifest, `${s.subTaskId}/`, entries, report, covered);
    }
  } else if (top) checkFiles(top, '', entries, report, covered);
  for (const name of entries.keys()) {
    if (!covered.has(name)) report.failures.push(`${name}: not covered by any manifest`);
  }
  return report;
}

type Manifest = Record<string, unknown> & {
  kind?: string;
  files?: FileEntry[];
  subTasks?: unknown[];
};

/** The manifest under `prefix` once its signature holds, else undefined with the failure said. */
async function signedManifest(
  entries: ReadonlyMap<string, BundleEntry>,
  prefix: string,
  keys: ReturnType<typeof createLocalJWKSet>,
  report: VerifyReport,
  covered: Set<string>,
): Promise<Manifest | undefined> {
  const jsonName = `${prefix}manifest.json`;
  const jwsName = `${prefix}manifest.jws`;
  covered.add(jsonName).add(jwsName);
  const json = entries.get(jsonName)?.bytes;
  const jws = entries.get(jwsName)?.bytes;
  if (!json) return fail(report, `${jsonName}: missing`);
  if (!jws) return fail(report, `${jwsName}: missing`);
  let signed: { payload: Uint8Array; protectedHeader: { kid?: string } };
  try {
    signed = await compactVerify(jws.toString('utf8').trim(), keys, { algorithms: ['EdDSA'] });
  } catch (err) {
    return fail(report, `${jwsName}: signature does not verify (${(err as Error).message})`);
  }
  if (!Buffer.from(signed.payload).equals(json))
    return fail(report, `${jsonName}: differs from the manifest signed in ${jwsName}`);
  report.verified.push(`${jwsName}: signature by key ${signed.protectedHeader.kid ?? '?'}`);
  return JSON.parse(json.toString('utf8')) as Manifest;
}

function checkFiles(
  manifest: Manifest,
  prefix: string,
  entries: ReadonlyMap<string, BundleEntry>,
  report: VerifyReport,
  covered: Set<string>,
): void {
  for (const f of manifest.files ?? []) {
    const name = prefix + f.name;
    covered.add(name);
    const entry = entries.get(name);
    if (!entry) report.failures.push(`${name}: listed in the manifest but missing`);
    else if (entry.sha256 !== f.sha256 || entry.size !== f.size)
      report.failures.push(`${name}: SHA-256 differs from the manifest`);
    else report.verified.push(`${name}: SHA-256 ${f.sha256}`);
  }
}

function fail(report: VerifyReport, failure: string): undefined {
  report.failures.push(failure);
  return undefined;
}
