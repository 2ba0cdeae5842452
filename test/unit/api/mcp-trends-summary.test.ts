import t from 'tap';
import { GAPS_NAMED, trendsSummary } from '../../../services/api/mcp/trends-summary.js';
import type { GapSeries, Trends } from '../../../services/shared/contracts/monitor-trends.js';

const RUN = '0b6f3f3e-8a55-4a8e-9a63-3c1f0d1f9e21';
const rate = (value: number, lower: number, upper: number, n: number) => ({
  value,
  lower,
  upper,
  n,
});

const trends = (channelGap: GapSeries[]): Trends => ({
  definitionsVersion: 3,
  groupBy: 'platform',
  from: null,
  to: null,
  series: [],
  discovered: [],
  insights: null,
  channelGap,
});

const gapSeries = (prompt: number, platform: string): GapSeries => ({
  prompt,
  platform,
  keyword: 'Acme',
  points: [
    {
      runId: RUN,
      slot: 1,
      api: rate(0.5, 0.2, 0.8, 6),
      web: rate(0.5, 0.2, 0.8, 6),
      gap: { value: 0, lower: -0.4, upper: 0.4 },
    },
    {
      runId: RUN,
      slot: 2,
      api: rate(1, 0.61, 1, 6),
      web: rate(0, 0, 0.39, 6),
      gap: { value: 1, lower: 0.45, upper: 1 },
    },
  ],
});

t.test('no gap series: the counts only', async (t) => {
  t.equal(
    trendsSummary(trends([])),
    '0 series by platform, 0 points, 0 discovered brand series (0 not watched), 0 API–web gap series (definitions v3)',
  );
});

t.test("each gap series named with its newest run's gap, interval and rates", async (t) => {
  t.equal(
    trendsSummary(trends([gapSeries(0, 'chatgpt'), gapSeries(1, 'deepseek')])),
    "0 series by platform, 0 points, 0 discovered brand series (0 not watched), 2 API–web gap series (definitions v3); newest run's API − web: " +
      'chatgpt, prompt 0, Acme: +100 pp (+45 to +100) · API 100% (61–100%, n = 6) · web 0% (0–39%, n = 6); ' +
      'deepseek, prompt 1, Acme: +100 pp (+45 to +100) · API 100% (61–100%, n = 6) · web 0% (0–39%, n = 6)',
  );
});

t.test('past the first few, the rest are counted', async (t) => {
  const many = Array.from({ length: GAPS_NAMED + 3 }, (_, i) => gapSeries(i, 'chatgpt'));
  const line = trendsSummary(trends(many));
  t.equal(line.match(/chatgpt, prompt \d+,/g)?.length, GAPS_NAMED, 'the first ten named');
  t.ok(line.endsWith('; and 3 more'), 'the rest counted');
  t.notOk(line.includes(`prompt ${GAPS_NAMED},`), 'the eleventh is not named');
});
