/**
 * The deployment files validate offline: deploy/compose.yaml against the
 * compose-spec JSON schema (vendored from github.com/compose-spec/compose-go/v2
 * v2.4.4, schema/compose-spec.json), plus the cross-file facts no schema sees.
 */
import { readFileSync, readdirSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import t from 'tap';
import { parseAllDocuments, parse, stringify } from 'yaml';
import Ajv2019 from 'ajv/dist/2019.js';
import { readDockerfile, stageEnv } from '../../helpers/dockerfile.js';
import { readKustomization, renderKustomization } from '../../helpers/kustomize.js';
import { ROOT as root } from '../../../infra/processes.js';

const deploy = join(root, 'deploy');

/** The schema's legacy draft-04 `id` keywords are errors for ajv; they name nothing the schema refers to. */
function withoutLegacyIds(node: unknown, isPropertyMap = false): any {
  if (Array.isArray(node)) return node.map((n) => withoutLegacyIds(n));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => isPropertyMap || key !== 'id' || typeof value !== 'string')
      .map(([key, value]) => [
        key,
        withoutLegacyIds(value, !isPropertyMap && key === 'properties'),
      ]),
  );
}

function composeValidator() {
  const schema = JSON.parse(
    readFileSync(join(root, 'test/fixtures/schemas/compose-spec.json'), 'utf8'),
  ) as Record<string, unknown>;
  const ajv = new Ajv2019.default({ strict: false, allErrors: true });
  return ajv.compile(withoutLegacyIds(schema));
}

function composeFile(): Record<string, any> {
  return parse(readFileSync(join(deploy, 'compose.yaml'), 'utf8'), { merge: true }) as Record<
    string,
    any
  >;
}

const k8s = join(deploy, 'k8s');

/** The manifests as `kubectl apply -k deploy/k8s/` sends them. */
function manifests(): Record<string, any>[] {
  return renderKustomization(k8s);
}

/** The image of each container of each workload, as `kind/name: image`. */
function images(docs: Record<string, any>[]): string[] {
  return docs
    .filter((d) => d.spec?.template?.spec)
    .flatMap((d) =>
      d.spec.template.spec.containers.map((c: any) => `${d.kind}/${d.metadata.name}: ${c.image}`),
    );
}

t.test('compose.yaml validates against the compose-spec schema', async (t) => {
  const validate = composeValidator();
  t.ok(validate(composeFile()), JSON.stringify(validate.errors));
});

t.test('a broken compose file is rejected', async (t) => {
  const validate = composeValidator();
  const broken = composeFile();
  broken.services.nats.image = 42;
  t.notOk(validate(broken));
  const unknown = composeFile();
  unknown.services.mongo.imagee = 'mongo:7';
  t.notOk(validate(unknown));
});

t.test('compose services set only variables config.ts reads', async (t) => {
  const config = readFileSync(join(root, 'services/shared/config.ts'), 'utf8');
  for (const [name, service] of Object.entries(composeFile().services as Record<string, any>)) {
    for (const variable of Object.keys(service.environment ?? {})) {
      t.match(config, new RegExp(`\\b${variable}\\b`), `${name}: ${variable}`);
    }
  }
  for (const line of readFileSync(join(deploy, 'secrets.env.example'), 'utf8').split('\n')) {
    const variable = /^([A-Z_]+)=/.exec(line)?.[1];
    if (variable) t.match(config, new RegExp(`\\b${variable}\\b`), variable);
  }
});

t.test('compose crawler nodes mount ports files that exist', async (t) => {
  const crawlers = Object.values(composeFile().services as Record<string, any>).filter(
    (s) => s.environment?.SERVICES === 'crawler',
  );
  t.equal(crawlers.length, 2);
  for (const crawler of crawlers) {
    const source = (crawler.volumes[0] as string).split(':')[0]!;
    t.ok(existsSync(join(deploy, source)), source);
    t.ok(Array.isArray(JSON.parse(readFileSync(join(deploy, source), 'utf8'))));
  }
});

t.test(
  'k8s: probes use the api health paths; crawler ports files are in the ConfigMap',
  async (t) => {
    const all = manifests();
    for (const m of all) t.ok(m.apiVersion && m.kind && m.metadata?.name, 'kind and name');
    const api = all.find((m) => m.kind === 'Deployment' && m.metadata.name === 'api')!;
    const container = api.spec.template.spec.containers[0];
    t.equal(container.livenessProbe.httpGet.path, '/api/business/health/live');
    t.equal(container.readinessProbe.httpGet.path, '/api/business/health/ready');
    t.equal(all.find((m) => m.metadata.name === 'scheduler')!.spec.replicas, 2);
    const ports = all.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'aimon-ports')!;
    const crawlers = all.filter(
      (m) => m.kind === 'Deployment' && m.metadata.name.startsWith('crawler-'),
    );
    t.equal(crawlers.length, 2);
    for (const crawler of crawlers) {
      const env = crawler.spec.template.spec.containers[0].env as {
        name: string;
        value?: string;
      }[];
      const file = env.find((e) => e.name === 'CRAWLER_PROXIES_FILE')!.value!;
      const key = file.split('/').pop()!;
      t.ok(ports.data[key], `${crawler.metadata.name}: ${key}`);
      t.ok(Array.isArray(JSON.parse(ports.data[key])));
    }
  },
);

/** kubernetes-validate (installed by infra/setup-test.sh under var/) with its bundled Kubernetes 1.30 schemas. */
function kubeValidate(files: string[]): { ok: boolean; output: string } {
  const bin = join(root, 'var/kube-validate/bin/kubernetes-validate');
  try {
    const output = execFileSync(bin, ['--strict', '-k', '1.30.0', ...files], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { ok: true, output };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

t.test('the rendered k8s manifests validate against the Kubernetes 1.30 schemas', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'deploy-')), 'rendered.yaml');
  writeFileSync(
    file,
    manifests()
      .map((m) => stringify(m))
      .join('---\n'),
  );
  const result = kubeValidate([file]);
  t.ok(result.ok, result.output);
});

t.test('the kustomization lists every manifest and sets the registry and tag once', async (t) => {
  const { resources, images: rules = [] } = readKustomization(k8s);
  t.strictSame(
    [...resources].sort(),
    readdirSync(k8s)
      .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
      .sort(),
    'every manifest file is a resource',
  );
  t.equal(rules.length, 1, 'one images entry');
  const rule = rules[0]!;
  const raw = resources.flatMap((f) =>
    parseAllDocuments(readFileSync(join(k8s, f), 'utf8')).map((d) => d.toJS()),
  );
  const own = images(raw).filter((i) => !/: nats:/.test(i));
  t.ok(own.length >= 6, 'every node of the service');
  for (const image of own) t.equal(image.split(': ')[1], rule.name, `${image}: a plain name`);
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  t.equal(rule.newTag, version, "the tag is the package's version");
  t.match(rule.newName, /^[a-z0-9.-]+\.[a-z]+(:\d+)?\//, 'a registry host');
  for (const image of images(manifests()).filter((i) => !/: nats:/.test(i))) {
    t.equal(image.split(': ')[1], `${rule.newName}:${version}`, image);
  }
});

t.test('a broken k8s manifest is rejected', async (t) => {
  const scheduler = parse(readFileSync(join(deploy, 'k8s/scheduler.yaml'), 'utf8')) as Record<
    string,
    any
  >;
  scheduler.spec.replicas = 'two';
  const file = join(mkdtempSync(join(tmpdir(), 'deploy-')), 'scheduler.yaml');
  writeFileSync(file, stringify(scheduler));
  t.notOk(kubeValidate([file]).ok);
});

t.test('every node of compose.yaml and k8s starts with a valid configuration', async (t) => {
  const { loadConfig } = await import('../../../services/shared/config.js');
  const secrets = Object.fromEntries(
    readFileSync(join(deploy, 'secrets.env.example'), 'utf8')
      .split('\n')
      .map((l) => /^([A-Z_]+)=(.*)$/.exec(l))
      .filter((m) => m !== null)
      .map((m) => [m[1]!, m[2]!]),
  );
  // A ports file is read where the container mounts it: here, from deploy/ports.
  const local = (env: Record<string, string>, file: string | undefined) =>
    file ? { ...env, CRAWLER_PROXIES_FILE: file } : env;
  // The environment a node of the deployment files starts with: the image's runtime stage.
  const image = stageEnv(readDockerfile(root).at(-1)!);
  t.equal(image.HOST, '0.0.0.0', 'the api listens beyond the container');
  for (const [name, service] of Object.entries(composeFile().services as Record<string, any>)) {
    if (!service.environment?.SERVICES) continue;
    const mount = (service.volumes?.[0] as string | undefined)?.split(':')[0];
    const env = local(
      { ...image, ...secrets, ...service.environment },
      mount ? join(deploy, mount) : undefined,
    );
    const config = loadConfig(env);
    t.ok(config.services.length > 0, `compose ${name}: ${config.services.join(',')}`);
  }
  const docs = manifests();
  const maps = Object.fromEntries(
    docs
      .filter((d) => d.kind === 'ConfigMap' || d.kind === 'Secret')
      .map((d) => [d.metadata.name, (d.data ?? d.stringData) as Record<string, string>]),
  );
  for (const d of docs.filter((x) => x.kind === 'Deployment')) {
    const container = d.spec.template.spec.containers[0];
    if (container.image?.startsWith('nats')) continue;
    const fromRefs = Object.assign(
      {},
      ...(container.envFrom ?? []).map(
        (r: any) => maps[(r.configMapRef ?? r.secretRef).name] ?? {},
      ),
    );
    const own = Object.fromEntries(
      (container.env ?? [])
        .filter((e: any) => e.value !== undefined)
        .map((e: any) => [e.name, String(e.value)]),
    );
    // The ports file as the aimon-ports ConfigMap mounts it.
    let portsFile: string | undefined;
    if (own.CRAWLER_PROXIES_FILE) {
      portsFile = join(mkdtempSync(join(tmpdir(), 'ports-')), 'ports.json');
      writeFileSync(portsFile, maps['aimon-ports']![own.CRAWLER_PROXIES_FILE.split('/').pop()!]!);
    }
    const config = loadConfig(local({ ...image, ...fromRefs, ...own }, portsFile));
    t.ok(config.services.length > 0, `k8s ${d.metadata.name}: ${config.services.join(',')}`);
  }
});
