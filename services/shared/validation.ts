/** Turns zod issues into the `{field, message}` list of a 400 answer. */
import type { z } from 'zod';
import type { FieldProblem } from './errors.js';

export function fieldName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const part of path) {
    if (typeof part === 'number') name += `[${part}]`;
    else name += name ? `.${String(part)}` : String(part);
  }
  return name || 'body';
}

export function zodProblems(error: z.ZodError): FieldProblem[] {
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  for (const issue of error.issues) {
    const problem = { field: fieldName(issue.path), message: issue.message };
    const key = `${problem.field}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}
