/**
 * The offline check of evidence bundles (bin/cli/bundle-verify.ts), on
 * bundles signed here with the bundle code's own manifest and signature:
 * a bundle verifies; any changed byte of a file, a manifest or a signature
 * fails naming that file; a missing, extra or unknown-key file is named too.
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import { exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import { keepsBytes, verifyBundle, type BundleEntry } from '../../../bin/cli/bundle-verify.js';
import { sign } from '../../../services/api/evidence/bundle.js';
import {
  manifestBytes,
  sha256,
  subTaskManifest,
  taskManifest,
  type BundleFile,
} from '../../../services/api/evidence/manifest.js';
import type { EvidenceFacts } from '../../../services/shared/evidence-facts.js';
import type { SigningKey } from '../../../services/shared/evidence-keys.js';

async function keyPair(kid: string): Promise<{ signing: SigningKey; jwks: JSONWebKeySet }> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  return {
    signing: { kid, key: privateKey },
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'EdDSA' }] },
  };
}

const facts = (subTaskId: string) =>
  ({
    taskId: '3f2b8c1e-0000-4000-8000-000000000000',
    subTaskId,
    seq: 0,
    platform: 'sandbox-web',
    channel: 'web',
    requestedMode: 'standard',
    effectiveMode: 'standard',
    status: 'completed',
    submitted: { prompt: 'p', screenshot: 1, regionCode: null },
    accountId: null,
    proxyExitAddress: '127.0.0.1',
    formatVersion: 'sandbox-1',
    startedAt: 1_000,
    endedAt: 2_000,
    pageScreenshot: null,
    mentionScreenshot: null,
    result: {} as EvidenceFacts['result'],
  }) satisfies EvidenceFacts;

const FILES: BundleFile[] = [
  { name: 'result.json', bytes: Buffer.from('{"answerContent":"Acme"}\n') },
  { name: 'raw-frames.ndjson', bytes: Buffer.from('{"t":0,"kind":"frame","data":"x"}\n') },
  { name: 'page-screenshot.png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) },
];

async function subBundle(key: SigningKey, prefix = '', id = 'sub-1') {
  const manifest = manifestBytes(
    subTaskManifest(facts(id), FILES, {
      accountLabel: null,
      serviceVersion: '1.0.0',
      bundledAt: 3_000,
      notes: [],
    }),
  );
  const files = new Map<string, Buffer>(FILES.map((f) => [prefix + f.name, f.bytes]));
  files.set(`${prefix}manifest.json`, manifest);
  files.set(`${prefix}manifest.jws`, Buffer.from(await sign(manifest, key)));
  return files;
}

function entries(files: ReadonlyMap<string, Buffer>): Map<string, BundleEntry> {
  return new Map(
    [...files].map(([name, bytes]) => [
      name,
      {
        sha256: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
        ...(keepsBytes(name) && { bytes }),
      },
    ]),
  );
}

function flipped(files: ReadonlyMap<string, Buffer>, name: string, index: number) {
  const copy = new Map(files);
  const bytes = Buffer.from(files.get(name)!);
  bytes[index]! ^= 0x20;
  copy.set(name, bytes);
  return copy;
}

const current = await keyPair('k2');

t.test('a sub task bundle verifies, each file and the signature said', async (t) => {
  const report = await verifyBundle(entries(await subBundle(current.signing)), current.jwks);
  t.same(report.failures, []);
  t.same(report.verified, [
    'manifest.jws: signature by key k2',
    ...FILES.map((f) => `${f.name}: SHA-256 ${sha256(f.bytes)}`),
  ]);
});

t.test('every byte of every file, manifest and signature counts', async (t) => {
  const files = await subBundle(current.signing);
  for (const [name, bytes] of files) {
    // Every byte of the small files; the signature's last character carries padding bits.
    const last = name === 'manifest.jws' ? bytes.length - 1 : bytes.length;
    let named = 0;
    for (let i = 0; i < last; i++) {
      const report = await verifyBundle(entries(flipped(files, name, i)), current.jwks);
      if (report.failures.some((f) => f.startsWith(`${name}:`))) named += 1;
    }
    t.equal(named, last, `${name}: all ${last} changed bytes fail and name it`);
  }
});

t.test('missing, extra and unlisted files are named', async (t) => {
  const files = await subBundle(current.signing);
  const without = new Map(files);
  without.delete('raw-frames.ndjson');
  t.same((await verifyBundle(entries(without), current.jwks)).failures, [
    'raw-frames.ndjson: listed in the manifest but missing',
  ]);
  const extra = new Map(files).set('notes.txt', Buffer.from('added later'));
  t.same((await verifyBundle(entries(extra), current.jwks)).failures, [
    'notes.txt: not covered by any manifest',
  ]);
  const noSig = new Map(files);
  noSig.delete('manifest.jws');
  t.match((await verifyBundle(entries(noSig), current.jwks)).failures, ['manifest.jws: missing']);
});

t.test('a key the set does not hold fails; a set with the old key verifies', async (t) => {
  const old = await keyPair('k1');
  const files = entries(await subBundle(old.signing));
  t.match((await verifyBundle(files, current.jwks)).failures, [
    /^manifest\.jws: signature does not verify/,
  ]);
  const both = { keys: [...old.jwks.keys, ...current.jwks.keys] };
  t.same((await verifyBundle(files, both)).failures, []);
});

t.test('a whole task: each sub task manifest hash is listed and signed', async (t) => {
  const files = new Map([
    ...(await subBundle(current.signing, 'a/', 'a')),
    ...(await subBundle(current.signing, 'b/', 'b')),
  ]);
  const top = manifestBytes(
    taskManifest(
      't',
      ['a', 'b'].map((id) => ({
        subTaskId: id,
        manifestSha256: sha256(files.get(`${id}/manifest.json`)!),
      })),
      '1.0.0',
      3_000,
    ),
  );
  files
    .set('manifest.json', top)
    .set('manifest.jws', Buffer.from(await sign(top, current.signing)));
  t.same((await verifyBundle(entries(files), current.jwks)).failures, []);
  const report = await verifyBundle(entries(flipped(files, 'b/result.json', 3)), current.jwks);
  t.same(report.failures, ['b/result.json: SHA-256 differs from the manifest']);
  const dropped = new Map(files);
  dropped.delete('a/manifest.json');
  t.match((await verifyBundle(entries(dropped), current.jwks)).failures, [
    'a/manifest.json: listed in manifest.json but missing',
    'a/manifest.json: missing',
  ]);
});
