/** RFC 4180 text of spreadsheet cells, pure. */

export type Cell = string | number | boolean | null;

/** A field quoted only when it must be: a comma, a quote, CR or LF (quotes doubled). */
export function csvField(value: Cell): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated as RFC 4180 writes it. */
export function csvLine(cells: readonly Cell[]): string {
  return cells.map(csvField).join(',') + '\r\n';
}

/** The byte-order mark, so spreadsheet programs read the file as UTF-8 (Chinese included). */
export const UTF8_BOM = '\uFEFF';
