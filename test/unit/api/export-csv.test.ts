/** RFC 4180 fields and the export's query checks, pure. */
import fc from 'fast-check';
import t from 'tap';
import { csvField, csvLine, type Cell } from '../../../services/api/export/csv.js';
import { checkExportRequest, exportFileName } from '../../../services/api/export/query.js';
import { parseCsv } from '../../helpers/exports.js';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

t.test('fields are quoted only when they must be, quotes doubled', async (t) => {
  t.equal(csvField('plain'), 'plain');
  t.equal(csvField('a,b'), '"a,b"');
  t.equal(csvField('say "hi"'), '"say ""hi"""');
  t.equal(csvField('two\nlines'), '"two\nlines"');
  t.equal(csvField('cr\r'), '"cr\r"');
  t.equal(csvField('中文，逗号'), '中文，逗号', 'a full-width comma is no separator');
  t.equal(csvField(null), '');
  t.equal(csvField(0), '0');
  t.equal(csvField(false), 'false');
  t.equal(csvLine(['a', null, 1, 'x,y']), 'a,,1,"x,y"\r\n');
});

t.test('any record of any text parses back to itself', async (t) => {
  const cell: fc.Arbitrary<Cell> = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.constantFrom('"', ',', '\r\n', '\n', '""', ' , '),
    fc.integer(),
    fc.boolean(),
  );
  fc.assert(
    fc.property(
      fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { maxLength: 5 }),
      (rows) => {
        const text = rows.map(csvLine).join('');
        const back = parseCsv(text);
        const expected = rows.map((r) => r.map((c) => String(c)));
        // A record of one empty field is an empty line, which RFC 4180 reads as one empty field too.
        return JSON.stringify(back) === JSON.stringify(expected);
      },
    ),
  );
  t.pass('round trip');
});

t.test('the query: defaults, file names, every problem at once', async (t) => {
  t.same(checkExportRequest(ID.toUpperCase(), { format: 'csv' }), {
    taskId: ID,
    format: 'csv',
    table: 'subtasks',
  });
  t.equal(
    exportFileName({ taskId: ID, format: 'ndjson', table: 'references' }),
    `${ID}-references.ndjson`,
  );
  t.equal(exportFileName({ taskId: ID, format: 'xlsx', table: 'references' }), `${ID}.xlsx`);
  t.throws(() => checkExportRequest('x', { format: ['csv', 'csv'], table: 'y' }), {
    code: 400,
    data: {
      errors: [
        { field: 'taskId', message: 'must be a UUID' },
        { field: 'format', message: 'format must be given once' },
        { field: 'table', message: 'table must be one of subtasks, references' },
      ],
    },
  });
});
