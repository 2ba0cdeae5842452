/** Tables the CLI prints, drawn by cli-table3 without colours so piped output stays plain. */
import Table from 'cli-table3';

export function renderTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const table = new Table({ head: [...head], style: { head: [], border: [] } });
  for (const row of rows) table.push([...row]);
  return table.toString();
}

/** One line of at most `max` characters, for table cells. */
export function clip(text: string | null | undefined, max: number): string {
  const line = oneLine(text);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const oneLine = (text: string | null | undefined): string =>
  (text ?? '').replace(/\s+/g, ' ').trim();

/** Characters a terminal draws two cells wide: CJK, full-width forms, emoji. */
const WIDE =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\u3000-\u303f\uff01-\uff60\uffe0-\uffe6\p{Extended_Pictographic}]/u;

/** Terminal cells the text takes. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += WIDE.test(ch) ? 2 : 1;
  return width;
}

/** The narrowest a column gets, padding included (`abcde…`). */
const MIN_WIDTH = 8;

/**
 * A table no wider than `width` terminal cells. Columns give way in stages:
 * the columns of `stages[0]` first (index → weight: a column of weight 2 is
 * kept twice as wide), down to a few characters each, then those of
 * `stages[1]`, and so on; a column in no stage keeps its width. Cut cells end
 * in `…` (cli-table3 cuts them). Cells are one line.
 */
export function renderFitted(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  width: number,
  stages: readonly Readonly<Record<number, number>>[],
): string {
  const cells = rows.map((row) => row.map(oneLine));
  // Each cell has one space of padding on both sides; n columns have n + 1 borders.
  const widths = head.map(
    (h, i) => Math.max(displayWidth(h), ...cells.map((row) => displayWidth(row[i] ?? ''))) + 2,
  );
  let over = widths.reduce((sum, w) => sum + w, head.length + 1) - width;
  for (const weights of stages) {
    const columns = Object.keys(weights).map(Number);
    for (; over > 0; over--) {
      const shrinkable = columns.filter((i) => widths[i]! > MIN_WIDTH);
      if (!shrinkable.length) break;
      const widest = shrinkable.reduce((a, b) =>
        widths[b]! / weights[b]! > widths[a]! / weights[a]! ? b : a,
      );
      widths[widest]!--;
    }
  }
  const table = new Table({
    head: [...head],
    colWidths: widths,
    wordWrap: false,
    style: { head: [], border: [] },
  });
  for (const row of cells) table.push(row);
  return table.toString();
}
