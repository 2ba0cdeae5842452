/**
 * The project's root folder: the nearest one above this module that holds
 * package-lock.json. Paths derived from it are right whether the code runs from
 * its sources (tsx), from var/build (the tests' child processes) or from dist
 * (the image), where counting `../` from a module would land inside the build
 * folder. Not package.json: tsc copies it into the build, as code imports it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function rootAbove(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package-lock.json'))) return at;
    if (dirname(at) === at) throw new Error(`no package-lock.json above ${dir}`);
  }
}

export const PROJECT_ROOT = rootAbove(dirname(fileURLToPath(import.meta.url)));
