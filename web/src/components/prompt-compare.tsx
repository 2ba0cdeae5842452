/**
 * One prompt across regions and channels: its mention rate per region and
 * platform channel in the latest run with figures, and the API–web gap over
 * time from the trends, with the newest run's gap per platform written out.
 */
import type { ChartOptions } from 'chart.js';
import { useContext, useMemo } from 'preact/hooks';
import { whenShort } from '../format.js';
import { LangContext, useT } from '../i18n.js';
import { rateText } from '../../../services/shared/figure-text.js';
import { chartOptions, gapChart, latestGaps } from '../monitor-charts.js';
import type { GapSeries, Run } from '../monitor-types.js';
import { promptAcrossRegions, regionLabel } from '../monitor-text.js';
import { ChartFigure } from './bar-chart.js';

/** A gap of two shares lies within ±100 points: a fixed scale keeps 0 in sight and charts comparable. */
const GAP_SCALE = { scales: { y: { min: -100, max: 100 } } };

interface Props {
  run: Run | undefined;
  prompts: readonly string[];
  prompt: number;
  keyword: string;
  gaps: readonly GapSeries[];
}

export function PromptCompare({ run, prompts, prompt, keyword, gaps }: Props) {
  const t = useT();
  const { lang } = useContext(LangContext);
  const table = useMemo(
    () => run && promptAcrossRegions(run, prompts[prompt] ?? '', keyword),
    [run, prompts, prompt, keyword],
  );
  const gap = useMemo(
    () => gapChart(gaps, prompt, keyword, (slot) => whenShort(slot, lang)),
    [gaps, prompt, keyword, lang],
  );
  const options = useMemo(
    () => chartOptions<'line'>(gap.tooltips, GAP_SCALE as ChartOptions<'line'>),
    [gap],
  );
  const latest = useMemo(() => latestGaps(gaps, prompt, keyword), [gaps, prompt, keyword]);
  const drawn = gap.data.datasets.length > 0;
  return (
    <>
      <h3>{t('regionRates', { keyword })}</h3>
      {!table || table.columns.length === 0 ? (
        <p class="muted" data-testid="compare-empty">
          {t('noFiguresYet')}
        </p>
      ) : (
        <div class="grid-scroll">
          <table class="data" data-testid="compare">
            <thead>
              <tr>
                <th>{t('region')}</th>
                {table.columns.map((c) => (
                  <th>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row) => (
                <tr>
                  <td>{regionLabel(row.region, t('noRegion'))}</td>
                  {row.rates.map((r) => (
                    <td>{r ? rateText(r) : '—'}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ChartFigure
        type="line"
        title={t('apiWebGap')}
        data={gap.data}
        options={options}
        testId="chart-gap"
        empty={drawn ? null : t('noGapYet')}
      />
      {drawn && (
        <>
          <p class="muted">{t('gapNote')}</p>
          <p>{t('latestRun')}:</p>
          <ul class="feed" data-testid="latest-gaps">
            {latest.map((line) => (
              <li>{line}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
