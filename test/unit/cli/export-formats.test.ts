import t from 'tap';
import * as api from '../../../services/api/export/query.js';
import * as cli from '../../../bin/cli/export-formats.js';

t.test("the CLI offers exactly the export route's formats and tables", async (t) => {
  t.same(cli.EXPORT_FORMATS, api.EXPORT_FORMATS);
  t.same(cli.EXPORT_TABLES, api.EXPORT_TABLES);
});
