/**
 * The export formats as streams. CSV and NDJSON are async generators behind
 * `Readable.from`, which pulls the next page only when the response has
 * taken the last one. XLSX is exceljs's streaming WorkbookWriter into a
 * PassThrough; after each page the writer waits for that stream to drain.
 */
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import type { KeywordGroup } from '../../shared/contracts/brand.js';
import { visibilityOf } from '../../shared/brand/visibility.js';
import { VisibilityInputs } from './visibility-inputs.js';
import { csvLine, UTF8_BOM, type Cell } from './csv.js';
import type { ExportTable } from './query.js';
import type { ExportSource } from './source.js';
import {
  DISCOVERED_HEADER,
  discoveredRow,
  OPPORTUNITY_HEADER,
  opportunityRow,
} from './insight-tables.js';
import {
  REFERENCE_HEADER,
  referenceRecords,
  referenceRows,
  subTaskHeader,
  subTaskRow,
  visibilityRows,
} from './tables.js';

/** The insight tables: sums over the whole task, one read of its visibility. */
type InsightTable = 'discovered' | 'opportunities';
const isInsight = (table: ExportTable): table is InsightTable =>
  table === 'discovered' || table === 'opportunities';

async function insightRows(source: ExportSource, table: InsightTable): Promise<Cell[][]> {
  const v = await source.visibility();
  return table === 'discovered'
    ? [DISCOVERED_HEADER, ...v.discovered.map(discoveredRow)]
    : [OPPORTUNITY_HEADER, ...v.opportunities.map(opportunityRow)];
}

export function csvStream(
  source: ExportSource,
  groups: readonly KeywordGroup[],
  taskName: string | null,
  table: ExportTable,
): Readable {
  return Readable.from(
    (async function* () {
      if (isInsight(table)) {
        yield UTF8_BOM + (await insightRows(source, table)).map(csvLine).join('');
        return;
      }
      const header = table === 'references' ? REFERENCE_HEADER : subTaskHeader(groups);
      yield UTF8_BOM + csvLine(header);
      for await (const items of source.pages()) {
        const rows =
          table === 'references'
            ? items.flatMap((i) => referenceRows(i, groups))
            : items.map((i) => subTaskRow(i, groups, taskName));
        if (rows.length > 0) yield rows.map(csvLine).join('');
      }
    })(),
    { objectMode: false },
  );
}

export function ndjsonStream(
  source: ExportSource,
  groups: readonly KeywordGroup[],
  taskName: string | null,
  table: ExportTable,
): Readable {
  return Readable.from(
    (async function* () {
      if (isInsight(table)) {
        // The visibility's own records (docs/insights.md), each with the task's name as the sub tasks have it.
        const v = await source.visibility();
        const records = table === 'discovered' ? v.discovered : v.opportunities;
        yield records.map((r) => JSON.stringify({ taskName, ...r }) + '\n').join('');
        return;
      }
      for await (const items of source.pages()) {
        const records =
          table === 'references'
            ? items.flatMap((i) => referenceRecords(i, groups))
            : items.map((i) => ({ taskName, ...i.result }));
        if (records.length > 0) yield records.map((r) => JSON.stringify(r) + '\n').join('');
      }
    })(),
    { objectMode: false },
  );
}

/** Excel refuses cells longer than this; longer answers are cut there. */
const EXCEL_CELL_MAX = 32_767;

/**
 * Writes the workbook into `out`: "sub tasks", then "references", then
 * "visibility", "discovered" and "opportunities". A streamed sheet must be
 * finished before the next one is written (the zip holds one entry at a
 * time), so the references are a second read of the task; the visibility is
 * computed from what the first read kept of each sub task
 * (visibility-inputs.ts), and the insight sheets are the tasks service's
 * visibility of the task (what keeps their pages, prompts and names is not
 * worth keeping here per sub task).
 */
export async function writeXlsx(
  source: ExportSource,
  groups: readonly KeywordGroup[],
  taskName: string | null,
  out: PassThrough,
): Promise<void> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: false,
  });
  const inputs = new VisibilityInputs(groups);
  const subTasks = book.addWorksheet('sub tasks');
  subTasks.addRow(subTaskHeader(groups)).commit();
  for await (const items of source.pages()) {
    for (const item of items) {
      subTasks.addRow(subTaskRow(item, groups, taskName).map(excelCell)).commit();
      inputs.add(item);
    }
    if (!(await drained(out))) return;
  }
  subTasks.commit();

  const references = book.addWorksheet('references');
  references.addRow(REFERENCE_HEADER).commit();
  for await (const items of source.pages()) {
    for (const row of items.flatMap((i) => referenceRows(i, groups))) {
      references.addRow(row.map(excelCell)).commit();
    }
    if (!(await drained(out))) return;
  }
  references.commit();

  const visibility = book.addWorksheet('visibility');
  // The insight sheets come from the tasks service below; this sheet shows no insight.
  for (const row of visibilityRows(visibilityOf(groups, inputs, { insights: false }))) {
    visibility.addRow(row.map(excelCell)).commit();
  }
  visibility.commit();

  const insights = await source.visibility();
  for (const [name, rows] of [
    ['discovered', [DISCOVERED_HEADER, ...insights.discovered.map(discoveredRow)]],
    ['opportunities', [OPPORTUNITY_HEADER, ...insights.opportunities.map(opportunityRow)]],
  ] as const) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow(row.map(excelCell)).commit();
    sheet.commit();
  }
  await book.commit();
}

function excelCell(value: Cell): Cell {
  return typeof value === 'string' && value.length > EXCEL_CELL_MAX
    ? value.slice(0, EXCEL_CELL_MAX)
    : value;
}

/**
 * Lets the page just written flow through the zip into `out`, then waits
 * while `out` is full (a slow client). false: the client is gone.
 */
async function drained(out: PassThrough): Promise<boolean> {
  await nextTurn();
  while (out.writableNeedDrain && !out.destroyed) {
    await Promise.race([once(out, 'drain'), once(out, 'close')]);
  }
  return !out.destroyed;
}
