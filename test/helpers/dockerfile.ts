/**
 * The Dockerfile read as Docker reads it, for the tests that check what the
 * image would hold: line continuations joined, comments dropped, one
 * instruction per line, grouped into stages by FROM.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Instruction {
  keyword: string;
  /** The text after the keyword, continuations joined. */
  args: string;
}

export interface Stage {
  /** The `AS` name, or the stage's index as text. */
  name: string;
  base: string;
  steps: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
  const lines = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line)!;
    const instruction = { keyword: keyword.toUpperCase(), args: args.trim() };
    if (instruction.keyword === 'FROM') {
      const [base = '', , name] = instruction.args.split(/\s+/);
      stages.push({ name: name ?? String(stages.length), base, steps: [] });
    } else {
      stages.at(-1)?.steps.push(instruction);
    }
  }
  return stages;
}

export function readDockerfile(root: string): Stage[] {
  return parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'));
}

/** The `ENV` settings of a stage, in order. */
export function stageEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const step of stage.steps.filter((s) => s.keyword === 'ENV')) {
    for (const [, k, v] of step.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S+)/g)) env[k!] = v!;
  }
  return env;
}

/** The `--flag=value` options and the sources and destination of a COPY. */
export function copyParts(step: Instruction): {
  flags: Record<string, string>;
  sources: string[];
  dest: string;
} {
  const words = step.args.split(/\s+/);
  const flags = Object.fromEntries(
    words
      .filter((w) => w.startsWith('--'))
      .map((w) => {
        const [k = '', v = ''] = w.slice(2).split('=');
        return [k, v];
      }),
  );
  const paths = words.filter((w) => !w.startsWith('--'));
  return { flags, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' };
}

/** An exec-form instruction (`CMD ["a", "b"]`) as its words. */
export function execForm(step: Instruction): string[] {
  return JSON.parse(step.args) as string[];
}
