/**
 * The files of the documentation page: Swagger UI's own from the installed
 * `swagger-ui-dist` package (the service works offline, so no CDN) and the
 * page's own, each by an explicit allow-list, so no other file of
 * node_modules can be named. Each is read once, gzip-compressed once (the
 * bundle is 1.7 MB) and given a content hash as its ETag.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { DOCS_INIT_SCRIPT, DOCS_STYLE } from './page.js';

const gzipAsync = promisify(gzip);

export interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
  /** Strong ETag of `body`; the gzip form has its own (`…-gz"`), as HTTP asks. */
  etag: string;
}

type Source = { type: string } & ({ package: string } | { text: string });

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** Every file the page may load, by the name it is served under. */
const SOURCES: Readonly<Record<string, Source>> = {
  'swagger-ui-bundle.js': { type: JS, package: 'swagger-ui-bundle.js' },
  'swagger-ui.css': { type: CSS, package: 'swagger-ui.css' },
  'favicon-32x32.png': { type: 'image/png', package: 'favicon-32x32.png' },
  'favicon-16x16.png': { type: 'image/png', package: 'favicon-16x16.png' },
  'docs-init.js': { type: JS, text: DOCS_INIT_SCRIPT },
  'docs.css': { type: CSS, text: DOCS_STYLE },
};

export const ASSET_NAMES: readonly string[] = Object.keys(SOURCES);

/** The installed package's folder, found the way Node resolves it. */
function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** A strong ETag: the first 192 bits of the content's SHA-256. */
export function etagOf(body: Buffer | string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

async function load(source: Source): Promise<Asset> {
  const body =
    'text' in source
      ? Buffer.from(source.text)
      : await readFile(join(packageDir(), source.package));
  return { type: source.type, body, gzip: await gzipAsync(body), etag: etagOf(body) };
}

/** Loads each allowed file on its first request and keeps it; other names are undefined. */
export class AssetStore {
  private readonly loaded = new Map<string, Promise<Asset>>();

  get(name: string): Promise<Asset> | undefined {
    const source = Object.hasOwn(SOURCES, name) ? SOURCES[name] : undefined;
    if (!source) return undefined;
    let asset = this.loaded.get(name);
    if (!asset) {
      asset = load(source);
      // A failed read (package missing) is retried by the next request, not remembered.
      asset.catch(() => this.loaded.delete(name));
      this.loaded.set(name, asset);
    }
    return asset;
  }
}
