import t from 'tap';
import { CSV_HEADER, formatResult, type TaskResult } from '../../../bin/cli/result-format.js';
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

t.test(
  'table: the answer of a completed sub task, the error of another, on one line',
  async (t) => {
    const text = formatResult(RESULT, 'table');
    t.equal(text.split('\n')[0], 'task T: partial_completed (1 completed, 1 failed, 2 sub tasks)');
    t.match(
      text,
      /│ Which "CRM", really\? │ kimi \(web\) │ search\s+│ completed │ Acme, then Globex \[1\]\s+│ 2\/1\s+│/,
    );
    t.match(
      text,
      /│ second\s+│ kimi \(api\) │ standard │ timeout\s+│ no answer within 60 s\s+│ 0\/0\s+│/,
    );
  },
);
