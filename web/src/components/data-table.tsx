/**
 * A table of plain records, one column per field of the first record (or the
 * given columns); nested values shown as compact JSON. On a phone it scrolls
 * inside its own box instead of widening the page.
 */
import { useT } from '../i18n.js';

type Row = Record<string, unknown>;

const cell = (v: unknown): string =>
  v === null || v === undefined
    ? '—'
    : typeof v === 'object'
      ? Array.isArray(v) && v.every((x) => typeof x !== 'object')
        ? v.join(', ')
        : JSON.stringify(v)
      : String(v);

export function DataTable({
  rows,
  columns,
  testId,
}: {
  rows: Row[];
  columns?: string[];
  testId: string;
}) {
  const t = useT();
  if (rows.length === 0)
    return (
      <p class="muted" data-testid={testId}>
        {t('none')}
      </p>
    );
  const keys = columns ?? Object.keys(rows[0]!);
  return (
    <div class="grid-scroll">
      <table class="data" data-testid={testId}>
        <thead>
          <tr>
            {keys.map((k) => (
              <th>{k}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>
              {keys.map((k) => (
                <td class={typeof r[k] === 'boolean' ? (r[k] ? 'yes' : 'no') : ''}>{cell(r[k])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
