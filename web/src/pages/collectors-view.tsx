/**
 * Collector health (`GET …/operator/collectors`, role operator): per
 * platform × region × account, the web channel's attempts tried and answered,
 * walls, rate limits and drift since counting began, the last success and the
 * last hour's attempts by outcome. A drifting site (its last hour all
 * failures, drift among them) is named at the top, before customers miss its
 * answers; the page reads the figures again every half minute.
 */
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import type { ChartOptions } from 'chart.js';
import { get } from '../api.js';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';
import type { CollectorHealth, CollectorsData } from '../../../services/shared/contracts/http.js';
import { WEB_OUTCOMES } from '../../../services/shared/contracts/web-outcomes.js';
import { BarChart } from '../components/bar-chart.js';
import { when } from '../format.js';
import { LangContext, useT, type Translate } from '../i18n.js';

const REFRESH_MS = 30_000;
const STACKED: ChartOptions<'bar'> = {
  indexAxis: 'y',
  scales: { x: { stacked: true, ticks: { precision: 0 } }, y: { stacked: true } },
};
/** One colour per outcome, answered green and drift red, so a drifting site reads at a glance. */
const COLOURS: Record<(typeof WEB_OUTCOMES)[number], string> = {
  answered: '#1f7a4d',
  login_wall: '#d08a00',
  captcha: '#a05a00',
  rate_limited: '#6b7fd7',
  drift: '#b32424',
  refused: '#7a5c99',
  timeout: '#5b6774',
  error: '#9aa5b1',
};

const label = (c: CollectorHealth) =>
  [c.platform, c.regionCode ?? 'any', c.accountId ?? '—'].join(' · ');

/** `12 min ago`: how stale the last success is, the first thing a drifting site shows. */
function age(ms: number | null, now: number, t: Translate): string {
  if (ms === null) return t('never');
  const minutes = Math.max(0, Math.round((now - ms) / 60_000));
  return minutes < 120
    ? t('minutesAgo', { n: minutes })
    : t('hoursAgo', { n: Math.round(minutes / 60) });
}

export function CollectorsView() {
  const t = useT();
  const [data, setData] = useState<CollectorsData | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const read = () =>
      get<CollectorsData>(PATHS.OPERATOR_COLLECTORS).then(
        (d) => {
          setData(d);
          setError(null);
        },
        (e: Error) => setError(e.message),
      );
    void read();
    const timer = setInterval(read, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const chart = useMemo(
    () =>
      data && {
        labels: data.collectors.map(label),
        datasets: WEB_OUTCOMES.map((outcome) => ({
          label: outcome,
          data: data.collectors.map((c) => c.recent.outcomes[outcome]),
          backgroundColor: COLOURS[outcome],
        })),
      },
    [data],
  );

  const drifting = data?.collectors.filter((c) => c.drifting) ?? [];
  return (
    <section>
      <h1>{t('collectors')}</h1>
      {error && <p class="error">{error}</p>}
      {data === null && <p>{t('loading')}</p>}
      {drifting.length > 0 && (
        <section class="card alert" data-testid="drifting" role="alert">
          <h2>{t('driftingSites')}</h2>
          <ul>
            {drifting.map((c) => (
              <li>
                <strong>{label(c)}</strong>: {t('driftLastHour', { n: c.recent.outcomes.drift })},{' '}
                {t('lastSuccess')} {age(c.lastSuccessAt, data!.generatedAt, t)}
                {c.recent.signals[0] && <code class="signal">{c.recent.signals[0].signal}</code>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {data && chart && (
        <section class="card">
          <BarChart
            title={t('lastHourByOutcome', { n: data.recentMinutes })}
            data={chart}
            options={STACKED}
            testId="chart-outcomes"
            empty={data.collectors.length === 0 ? t('noWebAttempts') : null}
          />
        </section>
      )}
      {data && data.collectors.length > 0 && (
        <section class="card">
          <h2>{t('sinceCounting')}</h2>
          <CollectorTable rows={data.collectors} now={data.generatedAt} />
        </section>
      )}
    </section>
  );
}

function CollectorTable({ rows, now }: { rows: CollectorHealth[]; now: number }) {
  const t = useT();
  const { lang } = useContext(LangContext);
  return (
    <div class="grid-scroll">
      <table class="data" data-testid="collectors">
        <thead>
          <tr>
            <th>platform</th>
            <th>regionCode</th>
            <th>accountId</th>
            <th>tried</th>
            <th>answered</th>
            <th>login_wall</th>
            <th>captcha</th>
            <th>rate_limited</th>
            <th>drift</th>
            <th title={t('answeredFromPageHint')}>{t('answeredFromPage')}</th>
            <th>{t('lastSuccess')}</th>
            <th>{t('lastFailure')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr class={c.drifting ? 'drifting' : ''} data-testid="collector-row">
              <td>{c.platform}</td>
              <td>{c.regionCode ?? 'any'}</td>
              <td>{c.accountId ?? '—'}</td>
              <td>{c.tried}</td>
              <td>{c.answered}</td>
              <td>{c.outcomes.login_wall}</td>
              <td>{c.outcomes.captcha}</td>
              <td>{c.outcomes.rate_limited}</td>
              <td>{c.outcomes.drift}</td>
              <td>{c.answeredFromPage}</td>
              <td title={when(c.lastSuccessAt, lang)}>{age(c.lastSuccessAt, now, t)}</td>
              <td title={c.lastFailure ? when(c.lastFailure.at, lang) : ''}>
                {c.lastFailure ? `${c.lastFailure.outcome}: ${c.lastFailure.message}` : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
