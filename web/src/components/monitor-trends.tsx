/** A monitor's mention-rate trend per group with its interval band and model markers, and the latest funnel. */
import type { ChartOptions } from 'chart.js';
import { useContext, useMemo } from 'preact/hooks';
import { whenShort } from '../format.js';
import { LangContext, useT } from '../i18n.js';
import { rateText } from '../../../services/shared/figure-text.js';
import { chartOptions, funnelChart, latestRates, trendChart } from '../monitor-charts.js';
import type { Series } from '../monitor-types.js';
import { ChartFigure } from './bar-chart.js';

const PERCENT = { scales: { y: { min: 0, max: 100 } } };
/** The funnel's steps read top to bottom, their labels readable on a phone. */
const FUNNEL = { indexAxis: 'y', scales: { x: { min: 0, max: 100 } } };

export function TrendChart({ series, keyword }: { series: readonly Series[]; keyword: string }) {
  const t = useT();
  const { lang } = useContext(LangContext);
  const chart = useMemo(
    () => trendChart(series, keyword, (slot) => whenShort(slot, lang), t('modelChangedTo')),
    [series, keyword, lang],
  );
  const options = useMemo(
    () => chartOptions<'line'>(chart.tooltips, PERCENT as ChartOptions<'line'>),
    [chart],
  );
  const drawn = chart.data.datasets.length > 0;
  return (
    <div class="chart-block">
      <ChartFigure
        type="line"
        title={t('trendTitle', { keyword })}
        data={chart.data}
        options={options}
        testId="chart-trend"
        empty={drawn ? null : t('noTrendsYet')}
      />
      {drawn && (
        <>
          <p class="muted">{t('bandNote')}</p>
          <p>{t('latestRun')}:</p>
          <ul class="feed" data-testid="latest-rates">
            {latestRates(series, keyword).map((l) => (
              <li>
                {l.group}: {rateText(l.rate)}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

export function FunnelPanel({ series, keyword }: { series: readonly Series[]; keyword: string }) {
  const t = useT();
  const chart = useMemo(
    () =>
      funnelChart(series, keyword, [
        t('stepReasoning'),
        t('stepRetrieved'),
        t('stepCited'),
        t('stepAnswer'),
      ]),
    [series, keyword, t],
  );
  const options = useMemo(
    () => chartOptions<'bar'>(chart.tooltips, FUNNEL as ChartOptions<'bar'>),
    [chart],
  );
  const drawn = chart.data.datasets.length > 0;
  return (
    <div class="chart-block">
      <ChartFigure
        type="bar"
        title={t('funnel', { keyword })}
        data={chart.data}
        options={options}
        testId="chart-funnel"
        empty={drawn ? null : t('noFunnelYet')}
      />
      {drawn && (
        <>
          <p class="muted">{t('funnelNote')}</p>
          <p>{t('dropped')}:</p>
          <ul class="feed" data-testid="dropped">
            {chart.dropped.map((d) => (
              <li>
                {d.group}: {d.rate.n > 0 ? rateText(d.rate) : t('droppedNone')}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
