import t from 'tap';
import { families, type FiguresSnapshot } from '../../../services/api/metrics/families.js';
import type { NodeState } from '../../../services/shared/crawler-states.js';

const node = (id: string, running: number | null, ports: [string, boolean][]): NodeState => ({
  node: { id, regions: ['310000'], capacity: 4, platforms: [], channels: ['api'] } as never,
  running,
  ports: ports.map(([city, active]) => ({ city, province: 'P', active }) as never),
});

const full: FiguresSnapshot = {
  tasks: {
    subtasks: [
      { platform: 'sandbox', channel: 'api', status: 'completed', count: 5 },
      { platform: 'sandbox', channel: 'web', status: 'pending', count: 2 },
      { platform: 'glm', channel: 'api', status: 'pending', count: 1 },
      { platform: 'glm', channel: 'api', status: 'processing', count: 3 },
    ],
    answerTimes: [
      {
        platform: 'sandbox',
        channel: 'api',
        buckets: [1, 3, 4, 4, 5, 5, 5, 5, 5],
        count: 5,
        sumSeconds: 12.5,
      },
    ],
    webOutcomes: [
      { platform: 'kimi', region: 'any', outcome: 'drift', count: 4 },
      { platform: 'kimi', region: '310100', outcome: 'answered', count: 7 },
    ],
  },
  callbacks: {
    attempts: [
      { outcome: 'delivered', count: 2 },
      { outcome: 'http_error', count: 1 },
    ],
    deliveries: [{ status: 'SUCCEEDED', count: 2 }],
  },
  crawlers: [
    node('c1', 2, [
      ['Shanghai', true],
      ['Shanghai', true],
      ['Hangzhou', false],
    ]),
    node('c2', null, []),
  ],
  accounts: [
    { platform: 'deepseek', state: 'healthy' },
    { platform: 'deepseek', state: 'healthy' },
    { platform: 'kimi', state: 'cooling' },
  ],
};

const sample = (s: FiguresSnapshot, name: string, metricName = name) =>
  families(s)
    .find((f) => f.name === name)
    ?.samples.filter((x) => (x.metricName ?? name) === metricName);

t.test('every source answered: all families, all up', async (t) => {
  const names = families(full).map((f) => f.name);
  t.same(names, [
    'aimon_figures_up',
    'aimon_subtasks',
    'aimon_queue_depth',
    'aimon_running_leases',
    'aimon_answer_seconds',
    'aimon_web_outcomes_total',
    'aimon_callback_attempts',
    'aimon_callback_deliveries',
    'aimon_crawler_capacity',
    'aimon_crawler_running',
    'aimon_proxy_ports',
    'aimon_accounts',
  ]);
  t.same(
    sample(full, 'aimon_figures_up')!.map((s) => s.value),
    [1, 1, 1, 1],
  );
  t.same(sample(full, 'aimon_queue_depth'), [{ labels: {}, value: 3 }], 'pending on any platform');
  t.same(sample(full, 'aimon_running_leases'), [{ labels: {}, value: 3 }]);
  t.same(sample(full, 'aimon_web_outcomes_total'), [
    { labels: { platform: 'kimi', region: 'any', outcome: 'drift' }, value: 4 },
    { labels: { platform: 'kimi', region: '310100', outcome: 'answered' }, value: 7 },
  ]);
  t.same(sample(full, 'aimon_accounts'), [
    { labels: { platform: 'deepseek', state: 'healthy' }, value: 2 },
    { labels: { platform: 'kimi', state: 'cooling' }, value: 1 },
  ]);
  t.same(sample(full, 'aimon_proxy_ports'), [
    { labels: { province: 'P', city: 'Hangzhou', state: 'inactive' }, value: 1 },
    { labels: { province: 'P', city: 'Shanghai', state: 'active' }, value: 2 },
  ]);
  t.same(
    sample(full, 'aimon_crawler_running'),
    [{ labels: { node: 'c1', region: '310000' }, value: 2 }],
    'a node that did not answer has no running figure',
  );
});

t.test('the answer time histogram is cumulative and ends with +Inf = count', async (t) => {
  const buckets = sample(full, 'aimon_answer_seconds', 'aimon_answer_seconds_bucket')!;
  t.same(
    buckets.map((b) => b.labels.le),
    [1, 2, 5, 10, 20, 30, 60, 120, 300, '+Inf'],
  );
  t.same(
    buckets.map((b) => b.value),
    [1, 3, 4, 4, 5, 5, 5, 5, 5, 5],
  );
  t.same(sample(full, 'aimon_answer_seconds', 'aimon_answer_seconds_sum'), [
    {
      metricName: 'aimon_answer_seconds_sum',
      labels: { platform: 'sandbox', channel: 'api' },
      value: 12.5,
    },
  ]);
});

t.test('a source that failed is down and its families are left out', async (t) => {
  const partial = { ...full, callbacks: null, crawlers: null };
  const names = families(partial).map((f) => f.name);
  t.notOk(names.includes('aimon_callback_attempts'));
  t.notOk(names.includes('aimon_proxy_ports'));
  t.ok(names.includes('aimon_subtasks'));
  t.same(
    sample(partial, 'aimon_figures_up')!.map((s) => [s.labels.source, s.value]),
    [
      ['tasks', 1],
      ['callbacks', 0],
      ['crawlers', 0],
      ['accounts', 1],
    ],
  );
});
