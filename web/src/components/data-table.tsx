/**
 * A table of plain records, one column per field of the first record (or the
 * given columns); nested values shown as compact JSON. On a phone it scrolls
 * inside its own box instead of widening the page.
 */
import { useT } from '../i18n.js';

type Row = Record<string, unknown>;

/** Fields named `at` or `…At` hold millisecond timestamps. */
const isTime = (key: string, v: unknown) => typeof v === 'number' && /(^at|At)$/.test(key);

const cell = (key: string, v: unknown): string =>
  isTime(key, v)
    ? new Date(v as number).toLocaleString()
    : v === null || v === undefined
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
                <td
                  class={typeof r[k] === 'boolean' ? (r[k] ? 'yes' : 'no') : ''}
                  title={cell(k, r[k])}
                >
                  {cell(k, r[k])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
