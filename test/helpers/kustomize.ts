/**
 * What `kubectl kustomize` renders from a kustomization.yaml that lists
 * resources and sets images, the two features deploy/k8s uses: the listed
 * manifests, with each container image the `images:` entries name rewritten
 * to their newName, newTag or digest.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export interface ImageRule {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

export interface Kustomization {
  resources: string[];
  images?: ImageRule[];
}

type Manifest = Record<string, any>;

export function readKustomization(dir: string): Kustomization {
  return parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
}

/** `registry:5000/app:1.2@sha256:…` → its name (`registry:5000/app`) and the rest (`:1.2@sha256:…`). */
export function splitImage(image: string): { name: string; ref: string } {
  const at = image.indexOf('@');
  const base = at >= 0 ? image.slice(0, at) : image;
  const colon = base.lastIndexOf(':');
  const end = colon > base.lastIndexOf('/') ? colon : base.length;
  return { name: image.slice(0, end), ref: image.slice(end) };
}

export function applyImageRules(image: string, rules: readonly ImageRule[]): string {
  const { name, ref } = splitImage(image);
  const rule = rules.find((r) => r.name === name);
  if (!rule) return image;
  const tag = rule.digest ? `@${rule.digest}` : rule.newTag ? `:${rule.newTag}` : ref;
  return `${rule.newName ?? name}${tag}`;
}

/** The pod spec of a workload (its template's) or of a Pod. */
function podSpec(m: Manifest): Manifest | undefined {
  return m.kind === 'Pod' ? m.spec : m.spec?.template?.spec;
}

export function renderKustomization(dir: string): Manifest[] {
  const k = readKustomization(dir);
  const docs = k.resources.flatMap((file) =>
    parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => d.toJS() as Manifest),
  );
  for (const spec of docs.map(podSpec)) {
    for (const c of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])]) {
      c.image = applyImageRules(c.image, k.images ?? []);
    }
  }
  return docs;
}
