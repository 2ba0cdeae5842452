import t from 'tap';
import {
  CSV_HEADER,
  DEFAULT_WIDTH,
  formatResult,
  type TaskResult,
} from '../../../bin/cli/result-format.js';
import { displayWidth } from '../../../bin/cli/table.js';
import { parseCsv } from '../../helpers/exports.js';

const ref = { index: 1, title: 't', url: 'https://a.example/', site: 'a', icon: '' };
const RESULT: TaskResult = {
  taskId: 'T',
  status: 'partial_completed',
  totalItems: 2,
  completedItems: 1,
  failedItems: 1,
  subTaskList: [
    {
      subTaskId: 'T-0',
      prompt: 'Which "CRM", really?',
      platform: 'kimi',
      channel: 'web',
      mode: 'search',
      status: 'completed',
      time: Date.UTC(2026, 0, 2, 3, 4, 5),
      answerContent: 'Acme, then\nGlobex [1]',
      referenceList: [ref, ref],
      citationList: [ref],
      mentioned: true,
      mentions: [
        { keyword: 'Acme', count: 1, position: 2 },
        { keyword: '格罗贝克斯', count: 2, position: 1 },
        { keyword: 'Initech', count: 0, position: null },
      ],
      errorMessage: null,
      pageScreenshot: 'http://x/s.png',
      proxyIp: '203.0.113.7',
    },
    {
      subTaskId: 'T-1',
      prompt: 'second',
      platform: 'kimi',
      channel: 'api',
      mode: 'standard',
      status: 'timeout',
      time: null,
      answerContent: null,
      referenceList: [],
      citationList: [],
      errorMessage: 'no answer within 60 s',
      pageScreenshot: null,
      proxyIp: null,
    },
  ],
};

t.test('csv: a header and one record per sub task, quoted where needed', async (t) => {
  const text = formatResult(RESULT, 'csv');
  t.notOk(text.startsWith('\uFEFF'), 'no BOM on a pipe');
  t.same(parseCsv(text), [
    CSV_HEADER,
    [
      'T-0',
      'Which "CRM", really?',
      'kimi',
      'web',
      'search',
      'completed',
      '2026-01-02T03:04:05.000Z',
      'Acme, then\nGlobex [1]',
      '2',
      '1',
      'true',
      '',
      'http://x/s.png',
      '203.0.113.7',
    ],
    [
      'T-1',
      'second',
      'kimi',
      'api',
      'standard',
      'timeout',
      '',
      '',
      '0',
      '0',
      '',
      'no answer within 60 s',
      '',
      '',
    ],
  ]);
});

t.test('json: the result as the API gave it', async (t) => {
  t.same(JSON.parse(formatResult(RESULT, 'json')), RESULT);
});

/** The table lines below the title line, and the widest of them in terminal cells. */
function table(width?: number) {
  const lines = formatResult(RESULT, 'table', width).split('\n');
  return {
    title: lines[0],
    lines: lines.slice(1),
    widest: Math.max(...lines.slice(1).map(displayWidth)),
  };
}

t.test(
  'table: the mentions with their positions, and the error of a failed sub task',
  async (t) => {
    const { title, lines } = table(140);
    t.equal(title, 'task T: partial_completed (1 completed, 1 failed, 2 sub tasks)');
    const text = lines.join('\n');
    t.match(text, /│ mentions \(#pos\)\s+│/);
    t.match(
      text,
      /│ Which "CRM", really\? │ kimi \(web\) │ search\s+│ completed │ Acme #2, 格罗贝克斯 #1 │ Acme, then Globex \[1\]\s+│ 2\/1\s+│/,
    );
    t.match(
      text,
      /│ second\s+│ kimi \(api\) │ standard │ timeout\s+│\s+│ no answer within 60 s\s+│ 0\/0\s+│/,
    );
  },
);

t.test('table: fits the terminal, cutting the prompt and the answer first', async (t) => {
  const wide = {
    ...RESULT.subTaskList[0]!,
    prompt: 'Which CRM fits a ten-person sales team that sells abroad? '.repeat(3),
    answerContent: 'Acme is good. '.repeat(40),
  };
  const long: TaskResult = { ...RESULT, subTaskList: [wide, RESULT.subTaskList[1]!] };
  for (const width of [80, 120]) {
    const lines = formatResult(long, 'table', width).split('\n').slice(1);
    t.equal(Math.max(...lines.map(displayWidth)), width, `${width} columns, exactly`);
    const cells = lines
      .find((l) => l.includes('格罗贝克斯'))!
      .split('│')
      .map((c) => c.trim());
    t.match(cells[1], /^Which.*…$/, 'the prompt ends in an ellipsis');
    t.match(cells[6], /^Acme.*…$/, 'the answer ends in an ellipsis');
    t.equal(cells[5], 'Acme #2, 格罗贝克斯 #1', 'the mentions are whole');
  }
  t.ok(
    table().widest <= DEFAULT_WIDTH,
    `${DEFAULT_WIDTH} columns when the terminal width is unknown`,
  );
});
