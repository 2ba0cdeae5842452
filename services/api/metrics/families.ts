/**
 * The business figures as Prometheus metric families: a pure mapping from one
 * snapshot of the cluster (figures-source.ts) to names, labels and values.
 * Every family is a gauge of what is stored or running now, except the answer
 * time histogram and the web outcome counter (running totals kept in MongoDB,
 * never reset); a source that did not answer leaves its families out and
 * sets `aimon_figures_up{source}` to 0.
 */
import { ANSWER_SECONDS_BUCKETS } from '../../shared/contracts/figures.js';
import type { CallbackFigures, TaskFigures } from '../../shared/contracts/figures.js';
import type { NodeState } from '../../shared/crawler-states.js';

export interface FiguresSnapshot {
  tasks: TaskFigures | null;
  callbacks: CallbackFigures | null;
  crawlers: NodeState[] | null;
  /** null: the source failed; an empty list: no accounts (or no accounts service). */
  accounts: { platform: string; state: string }[] | null;
}

export type Labels = Record<string, string | number>;

export interface Sample {
  labels: Labels;
  value: number;
  /** Histogram series (`_bucket`, `_sum`, `_count`); absent: the family's name. */
  metricName?: string;
}

export interface Family {
  name: string;
  help: string;
  type: 'gauge' | 'histogram' | 'counter';
  samples: Sample[];
}

export const SOURCES = ['tasks', 'callbacks', 'crawlers', 'accounts'] as const;

export function families(s: FiguresSnapshot): Family[] {
  const out: Family[] = [
    gauge(
      'aimon_figures_up',
      'Whether each source of these figures answered the latest gathering (1) or not (0)',
      SOURCES.map((source) => ({ labels: { source }, value: s[source] === null ? 0 : 1 })),
    ),
  ];
  if (s.tasks) out.push(...taskFamilies(s.tasks));
  if (s.callbacks) out.push(...callbackFamilies(s.callbacks));
  if (s.crawlers) out.push(...crawlerFamilies(s.crawlers));
  if (s.accounts) {
    out.push(
      gauge(
        'aimon_accounts',
        'Web channel accounts by platform and state',
        countBy(s.accounts, (a) => ({ platform: a.platform, state: a.state })),
      ),
    );
  }
  return out;
}

function taskFamilies(t: TaskFigures): Family[] {
  const total = (status: string) =>
    t.subtasks.filter((c) => c.status === status).reduce((n, c) => n + c.count, 0);
  return [
    gauge(
      'aimon_subtasks',
      'Stored sub tasks (within the retention period) by platform, channel and status',
      t.subtasks.map(({ platform, channel, status, count }) => ({
        labels: { platform, channel, status },
        value: count,
      })),
    ),
    gauge('aimon_queue_depth', 'Sub tasks waiting for a crawler node (pending)', [
      { labels: {}, value: total('pending') },
    ]),
    gauge('aimon_running_leases', 'Sub tasks leased to a crawler node and running (processing)', [
      { labels: {}, value: total('processing') },
    ]),
    {
      name: 'aimon_answer_seconds',
      help: 'How long the crawler node took to get each stored completed answer, by platform and channel',
      type: 'histogram',
      samples: t.answerTimes.flatMap(
        ({ platform, channel, buckets, count, sumSeconds }): Sample[] => [
          ...ANSWER_SECONDS_BUCKETS.map((le, i) => ({
            metricName: 'aimon_answer_seconds_bucket',
            labels: { platform, channel, le },
            value: buckets[i] ?? 0,
          })),
          {
            metricName: 'aimon_answer_seconds_bucket',
            labels: { platform, channel, le: '+Inf' },
            value: count,
          },
          {
            metricName: 'aimon_answer_seconds_sum',
            labels: { platform, channel },
            value: sumSeconds,
          },
          { metricName: 'aimon_answer_seconds_count', labels: { platform, channel }, value: count },
        ],
      ),
    },
    {
      name: 'aimon_web_outcomes_total',
      help: 'Web-channel attempts by platform, region (any: none) and outcome (answered, login_wall, captcha, rate_limited, drift, refused, timeout, error)',
      type: 'counter',
      samples: t.webOutcomes.map(({ platform, region, outcome, count }) => ({
        labels: { platform, region, outcome },
        value: count,
      })),
    },
  ];
}

function callbackFamilies(c: CallbackFigures): Family[] {
  return [
    gauge(
      'aimon_callback_attempts',
      'Stored callback delivery attempts by outcome (delivered, http_error, network_error)',
      c.attempts.map(({ outcome, count }) => ({ labels: { outcome }, value: count })),
    ),
    gauge(
      'aimon_callback_deliveries',
      'Stored callback deliveries by state',
      c.deliveries.map(({ status, count }) => ({ labels: { status }, value: count })),
    ),
  ];
}

function crawlerFamilies(nodes: NodeState[]): Family[] {
  const region = (n: NodeState) => n.node.regions.join(',') || 'any';
  return [
    gauge(
      'aimon_crawler_capacity',
      'Sub tasks each live crawler node runs at once',
      nodes.map((n) => ({
        labels: { node: n.node.id, region: region(n) },
        value: n.node.capacity,
      })),
    ),
    gauge(
      'aimon_crawler_running',
      'Sub tasks each live crawler node is running (absent: the node did not answer)',
      nodes
        .filter((n) => n.running !== null)
        .map((n) => ({ labels: { node: n.node.id, region: region(n) }, value: n.running! })),
    ),
    gauge(
      'aimon_proxy_ports',
      'Regional proxy ports of the live crawler nodes by city and state (active, inactive)',
      countBy(
        nodes.flatMap((n) => n.ports),
        (p) => ({
          province: p.province,
          city: p.city,
          state: p.active ? 'active' : 'inactive',
        }),
      ),
    ),
  ];
}

function gauge(name: string, help: string, samples: Sample[]): Family {
  return { name, help, type: 'gauge', samples };
}

/** One sample per distinct label set, counting the items that have it; sorted for stable output. */
function countBy<T>(items: T[], labelsOf: (item: T) => Record<string, string>): Sample[] {
  const counts = new Map<string, Sample>();
  for (const item of items) {
    const labels = labelsOf(item);
    const key = JSON.stringify(Object.entries(labels));
    const sample = counts.get(key) ?? { labels, value: 0 };
    sample.value += 1;
    counts.set(key, sample);
  }
  return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, s]) => s);
}
