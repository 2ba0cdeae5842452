/**
 * `aimon apply -f monitors.yaml`, pure: the file's monitors (YAML, or JSON,
 * which is YAML too), matched by name to the caller's, and the difference
 * field by field. Both sides are read through the service's own monitor rules
 * (services/shared/requests/monitor.ts), so defaults and spellings the service
 * fills in (a prompt without tags, the default samples) are no difference.
 */
import { parse } from 'yaml';
import type { MonitorView } from '../../services/shared/contracts/monitors.js';
import { checkMonitorInput, type MonitorInput } from '../../services/shared/requests/monitor.js';
import { CliError, EXIT } from './exit-codes.js';

/** The fields a file sets: what `POST …/monitors` takes. */
const FIELDS = [
  'name',
  'prompts',
  'platforms',
  'regionCodes',
  'monitorKeywords',
  'samples',
  'schedule',
  'callbackUrl',
  'enabled',
] as const;
type Field = (typeof FIELDS)[number];

export interface Desired {
  name: string;
  /** The monitor as the file gives it: the body sent. */
  body: Record<string, unknown>;
}

export type Step =
  | { action: 'create'; desired: Desired }
  | { action: 'update'; desired: Desired; monitorId: string; changes: FieldChange[] }
  | { action: 'unchanged'; name: string; monitorId: string };

export interface FieldChange {
  field: Field;
  before: unknown;
  after: unknown;
}

/** `monitors: [...]` or a list at the top; every problem of every monitor at once. */
export function readMonitorsFile(text: string): Desired[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new CliError(`the file is not YAML: ${(err as Error).message}`, EXIT.usage);
  }
  const list = Array.isArray(doc) ? doc : (doc as { monitors?: unknown } | null)?.monitors;
  if (!Array.isArray(list) || list.length === 0) {
    throw new CliError('the file holds no monitors: expected `monitors:` with a list', EXIT.usage);
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  const desired = list.map((entry, i) => {
    const checked = checkMonitorInput(entry);
    if (!checked.ok) {
      for (const e of checked.errors) problems.push(`monitors[${i}].${e.field}: ${e.message}`);
      return null;
    }
    if (seen.has(checked.value.name)) {
      problems.push(`monitors[${i}].name: "${checked.value.name}" appears twice in the file`);
    }
    seen.add(checked.value.name);
    return { name: checked.value.name, body: entry as Record<string, unknown> };
  });
  if (problems.length > 0) throw new CliError('the file has problems', EXIT.usage, problems);
  return desired as Desired[];
}

/** A monitor's fields as the service keeps them (a stored one's view has more: left out). */
function canonical(monitor: Record<string, unknown>): Pick<MonitorInput, Field> {
  const fields = Object.fromEntries(FIELDS.filter((f) => f in monitor).map((f) => [f, monitor[f]]));
  const checked = checkMonitorInput(fields);
  if (!checked.ok) throw new Error(`not a monitor: ${JSON.stringify(checked.errors)}`);
  return checked.value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function planApply(desired: readonly Desired[], existing: readonly MonitorView[]): Step[] {
  return desired.map((d) => {
    const matches = existing.filter((m) => m.name === d.name);
    if (matches.length > 1) {
      throw new CliError(
        `${matches.length} of your monitors are named "${d.name}": rename all but one to apply by name`,
        EXIT.usage,
      );
    }
    const current = matches[0];
    if (!current) return { action: 'create', desired: d };
    const before = canonical(current);
    const after = canonical(d.body);
    const changes = FIELDS.filter((f) => !same(before[f], after[f])).map((field) => ({
      field,
      before: before[field],
      after: after[field],
    }));
    return changes.length === 0
      ? { action: 'unchanged', name: d.name, monitorId: current.monitorId }
      : { action: 'update', desired: d, monitorId: current.monitorId, changes };
  });
}

const json = (v: unknown) => JSON.stringify(v);

/** The difference, one line per monitor and per changed field, and the totals. */
export function planText(steps: readonly Step[], dryRun: boolean): string {
  const lines: string[] = [];
  for (const step of steps) {
    if (step.action === 'create') lines.push(`+ create "${step.desired.name}"`);
    if (step.action === 'unchanged') lines.push(`= unchanged "${step.name}"`);
    if (step.action === 'update') {
      lines.push(`~ update "${step.desired.name}" (${step.monitorId})`);
      for (const c of step.changes) {
        lines.push(`    ${c.field}: ${json(c.before)} → ${json(c.after)}`);
      }
    }
  }
  const count = (a: Step['action']) => steps.filter((s) => s.action === a).length;
  const [create, update, unchanged] = [count('create'), count('update'), count('unchanged')];
  if (create + update === 0) {
    lines.push(`nothing to change: ${unchanged} monitors up to date`);
  } else {
    lines.push(
      `${dryRun ? 'would create' : 'created'} ${create}, ${dryRun ? 'would update' : 'updated'} ${update}, ${unchanged} unchanged${dryRun ? ' (dry run: nothing changed)' : ''}`,
    );
  }
  return lines.join('\n');
}
