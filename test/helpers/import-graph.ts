/**
 * The project modules a TypeScript module reaches through its relative
 * imports, static and dynamic (pure over the files' text, read here): paths
 * relative to the project root, `.js` specifiers read as their `.ts` sources.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)'/g;

export function modulesReached(root: string, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = readFileSync(join(root, path), 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const target = join(dirname(path), m[1]!.replace(/\.js$/, '.ts'));
      if (target.endsWith('.ts') && existsSync(join(root, target))) visit(relative('.', target));
    }
  };
  visit(entry);
  return seen;
}
