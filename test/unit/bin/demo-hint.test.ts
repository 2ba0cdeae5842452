/**
 * The demo's closing hint signs the CLI in as the README does, the key from
 * stdin: the key is never an argument of a command that runs as a process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { demoHint } from '../../../bin/demo-hint.js';
import { ROOT } from '../../../infra/processes.js';

const input = {
  base: 'http://127.0.0.1:3000',
  apiKey: 'amk_secret-demo-key',
  token: 'eyJ.token.sig',
  tokenTtlSeconds: 3600,
  pollUrl: '/api/business/monitor/task/status/t-1',
  taskId: 't-1',
};

t.test('the CLI line is the README stdin form, the key only in a shell builtin', async (t) => {
  const hint = demoHint(input);
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const readmeLogin = /^(echo "\$KEY" \| npm run -s cli -- login --url "\$BASE" --key -)/m.exec(
    readme,
  );
  t.ok(readmeLogin, "the README's login line");
  const expected = readmeLogin![1]!.replace('"$BASE"', input.base);
  const lines = hint.split('\n').map((l) => l.trim());
  t.ok(lines.includes(expected), `the hint prints ${expected}`);
  t.same(
    lines.filter((l) => l.includes(input.apiKey)),
    [`export KEY=${input.apiKey}`],
    'the key appears only where KEY is set',
  );
  for (const line of lines.filter((l) => l.includes('--key')))
    t.match(line, /--key -$/, `${line}: the key comes from stdin`);
  t.notMatch(hint, /<the API key above>/);
});

t.test('the rest of the hint: curl with the token, dashboard and API docs', async (t) => {
  const hint = demoHint(input);
  t.match(hint, 'token valid for 3600 s');
  t.match(hint, `export TOKEN=${input.token}`);
  t.match(hint, `${input.base}${input.pollUrl}`);
  t.match(hint, `${input.base}/api/business/monitor/task/result/t-1`);
  t.match(hint, `Dashboard: ${input.base}/`);
  t.match(hint, `API docs:  ${input.base}/api/business/docs`);
});
