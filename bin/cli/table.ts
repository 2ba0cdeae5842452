/** Tables the CLI prints, drawn by cli-table3 without colours so piped output stays plain. */
import Table from 'cli-table3';

export function renderTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const table = new Table({ head: [...head], style: { head: [], border: [] } });
  for (const row of rows) table.push([...row]);
  return table.toString();
}

/** One line of at most `max` characters, for table cells. */
export function clip(text: string | null | undefined, max: number): string {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
