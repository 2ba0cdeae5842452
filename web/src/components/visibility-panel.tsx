/** The task's brand visibility as charts: mention rate, top-3 share, share of voice, cited domains. */
import type { ChartOptions } from 'chart.js';
import { useMemo } from 'preact/hooks';
import { useT } from '../i18n.js';
import type { Visibility } from '../types.js';
import { chartGaps, perKeyword, topDomains } from '../visibility-charts.js';
import { BarChart } from './bar-chart.js';

const PERCENT: ChartOptions<'bar'> = { scales: { y: { min: 0, max: 100 } } };
const SHARE: ChartOptions<'bar'> = {
  scales: { x: { stacked: true }, y: { stacked: true, min: 0, max: 100 } },
};
const DOMAINS: ChartOptions<'bar'> = { indexAxis: 'y', plugins: { legend: { display: false } } };

/** `soFar`: the task still runs, and the charts count the answers so far. */
export function VisibilityPanel({ visibility, soFar }: { visibility: Visibility; soFar: boolean }) {
  const t = useT();
  const charts = useMemo(
    () => ({
      rate: perKeyword(visibility, 'mentionRate'),
      top3: perKeyword(visibility, 'top3Share'),
      share: perKeyword(visibility, 'shareOfVoice'),
      domains: topDomains(visibility),
      gaps: chartGaps(visibility),
    }),
    [visibility],
  );
  const keywordsGap = charts.gaps.keywords && t(charts.gaps.keywords);
  return (
    <section class="card" data-testid="visibility">
      <h2>{t('visibility')}</h2>
      {soFar && (
        <p class="muted" data-testid="visibility-so-far">
          {t('visibilitySoFar')}
        </p>
      )}
      {visibility.keywords.length === 0 && <p class="muted">{t('noKeywords')}</p>}
      <div class="charts">
        {visibility.keywords.length > 0 && (
          <>
            <BarChart
              title={`${t('mentionRate')} (%)`}
              data={charts.rate}
              options={PERCENT}
              testId="chart-rate"
              empty={keywordsGap}
            />
            <BarChart
              title={t('top3Share')}
              data={charts.top3}
              options={PERCENT}
              testId="chart-top3"
              empty={keywordsGap}
            />
            <BarChart
              title={`${t('shareOfVoice')} (%)`}
              data={charts.share}
              options={SHARE}
              testId="chart-share"
              empty={keywordsGap}
            />
          </>
        )}
        <BarChart
          title={t('topDomains')}
          data={charts.domains}
          options={DOMAINS}
          testId="chart-domains"
          empty={charts.gaps.domains && t(charts.gaps.domains)}
        />
      </div>
    </section>
  );
}
