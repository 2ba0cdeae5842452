/**
 * The seams between the parts: crawler nodes share only the wire contracts
 * and the shared modules with the services (services/shared/), and services
 * reach crawler code only where a process loads the crawler role.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(dir, f));
}

/** The project files a source file imports, relative to the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specs = [...text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => relative(root, resolve(root, dirname(file), s)));
}

t.test('crawler code imports nothing from services/ but services/shared/', async (t) => {
  const crossings = sources('crawler').flatMap((f) =>
    importsOf(f)
      .filter((i) => i.startsWith('services/') && !i.startsWith('services/shared/'))
      .map((i) => `${f} -> ${i}`),
  );
  t.strictSame(crossings, []);
});

/**
 * A platform is defined once, in its own folder beside its drivers
 * (`crawler/platforms/<name>/definition.ts`); the catalogue the services
 * validate against is built from those definitions. They are pure data (see
 * the next test), so reading them loads no crawler code.
 */
const DEFINITION = /^crawler\/platforms\/[\w-]+\/definition\.js$/;

t.test('services reach crawler code only to load the crawler role', async (t) => {
  const crossings = sources('services').flatMap((f) =>
    importsOf(f)
      .filter((i) => i.startsWith('crawler/'))
      .filter((i) => !(f === 'services/shared/platforms.ts' && DEFINITION.test(i)))
      .map((i) => `${f} -> ${i}`),
  );
  t.strictSame(crossings, [
    'services/index.ts -> crawler/crawler.service.js',
    'services/index.ts -> crawler/advert.js',
  ]);
});

t.test('platform definitions import only the definition vocabulary', async (t) => {
  const definitions = sources('crawler/platforms').filter((f) => f.endsWith('/definition.ts'));
  t.ok(definitions.length >= 13, 'one per platform folder');
  const outside = definitions.flatMap((f) =>
    importsOf(f)
      .filter((i) => i !== 'services/shared/platform-definition.js')
      .map((i) => `${f} -> ${i}`),
  );
  t.strictSame(outside, []);
});

t.test('the wire contracts depend only on each other and shared vocabulary', async (t) => {
  const outside = sources('services/shared/contracts').flatMap((f) =>
    importsOf(f)
      .filter((i) => !i.startsWith('services/shared/'))
      .map((i) => `${f} -> ${i}`),
  );
  t.strictSame(outside, []);
});

/**
 * The product and its benchmarks ship or run without the tests: the image's
 * build context leaves test/ out, so one import of it breaks the build.
 */
const OUTSIDE_TEST = ['services', 'crawler', 'bin', 'bench', 'web', 'sandbox', 'replicas', 'infra'];

t.test('no production or bench file imports test/', async (t) => {
  const files = OUTSIDE_TEST.flatMap((dir) => sources(dir));
  t.ok(
    OUTSIDE_TEST.every((dir) => files.some((f) => f.startsWith(`${dir}/`))),
    'every folder is read',
  );
  const crossings = files.flatMap((f) =>
    importsOf(f)
      .filter((i) => i.startsWith('test/'))
      .map((i) => `${f} -> ${i}`),
  );
  t.strictSame(crossings, []);
});
