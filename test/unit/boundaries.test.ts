/**
 * The seams between the parts: crawler nodes share only the wire contracts
 * and the shared modules with the services (services/shared/), services
 * reach crawler code only where a process loads the crawler role, each
 * service keeps its files to itself (others call its actions), and the
 * dashboard takes only shared modules from the server.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT as root } from '../../infra/processes.js';

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

/** `file -> import` for each import of the files under `dir` that crosses a seam. */
function crossings(dir: string, crosses: (imported: string, file: string) => boolean): string[] {
  return sources(dir).flatMap((f) =>
    importsOf(f)
      .filter((i) => crosses(i, f))
      .map((i) => `${f} -> ${i}`),
  );
}

t.test('crawler code imports nothing from services/ but services/shared/', async (t) => {
  t.strictSame(
    crossings('crawler', (i) => i.startsWith('services/') && !i.startsWith('services/shared/')),
    [],
  );
});

t.test('services reach crawler code only to load the crawler role', async (t) => {
  t.strictSame(
    crossings('services', (i) => i.startsWith('crawler/')),
    ['services/index.ts -> crawler/crawler.service.js', 'services/index.ts -> crawler/advert.js'],
  );
});

/**
 * A platform is defined once, as pure data in `services/shared/platforms/`;
 * the catalogue the services validate against and the crawler's drivers,
 * settings and adverts are all built from those definitions.
 */
t.test('platform definitions import only the definition vocabulary', async (t) => {
  t.ok(sources('services/shared/platforms').length >= 13, 'one per platform, and the vocabulary');
  t.strictSame(
    crossings('services/shared/platforms', (i) => i !== 'services/shared/platforms/definition.js'),
    [],
  );
});

/** The service folder a file belongs to (`services/tasks/`), or undefined outside one. */
const serviceOf = (path: string) => /^services\/(?!shared\/)[^/]+\//.exec(path)?.[0];

t.test('no service imports another service’s files: only services/shared/', async (t) => {
  const foreign = (i: string, f: string) =>
    // The composition root starts every service.
    f !== 'services/index.ts' && serviceOf(i) !== undefined && serviceOf(i) !== serviceOf(f);
  t.strictSame(crossings('services', foreign), []);
});

/** Shared modules (the wire contracts among them) sit below every service. */
t.test('the shared modules import no service', async (t) => {
  t.strictSame(
    crossings(
      'services/shared',
      (i) => i.startsWith('services/') && !i.startsWith('services/shared/'),
    ),
    [],
  );
});

/**
 * The dashboard is built by Vite from web/ alone, plus the shared modules it
 * needs: the wire contracts, the brand matcher, the events stream's progress
 * rules and the city look-up's path.
 */
t.test('web/ imports nothing from the server but services/shared/', async (t) => {
  t.strictSame(
    crossings('web', (i) => !i.startsWith('web/') && !i.startsWith('services/shared/')),
    [],
  );
  t.ok(
    sources('web').some((f) => importsOf(f).includes('services/shared/brand/matcher.js')),
    'the dashboard runs the service’s own brand matcher',
  );
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
