/**
 * One monitor: its settings and a run now; the mention-rate trend per platform,
 * region or channel with interval bands and model markers; the funnel; the
 * brands nobody watched, each with a button to watch it; the changes; one prompt across regions and channels; the runs with their tasks.
 * The trends and changes routes answering 404 read as "no data yet".
 */
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, get, post } from '../api.js';
import { PATHS, pathTo } from '../../../services/shared/contracts/http-paths.js';
import { ChangeFeed } from '../components/change-feed.js';
import { DiscoveredBrands } from '../components/monitor-discovered.js';
import { MonitorRuns } from '../components/monitor-runs.js';
import { FunnelPanel, TrendChart } from '../components/monitor-trends.js';
import { PromptCompare } from '../components/prompt-compare.js';
import { platformLabel, when } from '../format.js';
import { LangContext, useT } from '../i18n.js';
import { keywordsOf } from '../monitor-charts.js';
import {
  GROUP_BYS,
  type Change,
  type Changes,
  type GroupBy,
  type Monitor,
  type Run,
  type RunPage,
  type Trends,
  type WatchResult,
} from '../monitor-types.js';
import {
  keywordsOfRun,
  latestWithFigures,
  samplesText,
  scheduleText,
  tasksByRun,
} from '../monitor-text.js';

/** Runs read for the list, the change feed's links and the comparison. */
const RUNS = 50;
/** How often the runs are read again while one is under way. */
const REFRESH_MS = 2000;

/** A route's data, or `[]`-like emptiness when the route is not there (404). */
const orAbsent =
  <T,>(absent: T) =>
  (e: unknown) => {
    if (e instanceof ApiError && e.status === 404) return absent;
    throw e;
  };

export function MonitorPage({ monitorId }: { monitorId: string }) {
  const t = useT();
  const { lang } = useContext(LangContext);
  const base = pathTo(PATHS.MONITOR, { monitorId });
  const [monitor, setMonitor] = useState<Monitor | null>(null);
  const [runs, setRuns] = useState<Run[] | null>(null);
  const [groupBy, setGroupBy] = useState<GroupBy>('platform');
  const [trends, setTrends] = useState<Trends | null>(null);
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [keyword, setKeyword] = useState('');
  const [prompt, setPrompt] = useState(0);
  const [note, setNote] = useState<string | null>(null);
  const [watching, setWatching] = useState<string | null>(null);
  const [watchNote, setWatchNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fail = (e: Error) => setError(e.message);

  const readRuns = () =>
    get<RunPage>(`${pathTo(PATHS.MONITOR_RUNS, { monitorId })}?size=${RUNS}`).then(
      (p) => setRuns(p.runs),
      fail,
    );
  useEffect(() => {
    get<Monitor>(base).then(setMonitor, fail);
    void readRuns();
    get<Changes>(`${base}/changes`)
      .catch(orAbsent<Changes>({ definitionsVersion: 0, changes: [] }))
      .then((c) => setChanges(c.changes), fail);
  }, [monitorId]);
  const readTrends = () =>
    get<Trends>(`${base}/trends?groupBy=${groupBy}`)
      .catch(
        orAbsent<Trends>({
          definitionsVersion: 0,
          groupBy,
          from: null,
          to: null,
          series: [],
          discovered: [],
          insights: null,
          channelGap: [],
        }),
      )
      .then(setTrends, fail);
  useEffect(() => {
    void readTrends();
  }, [monitorId, groupBy]);
  const underWay = runs?.some((r) => r.status === 'starting' || r.status === 'running');
  useEffect(() => {
    if (!underWay) return;
    const timer = setTimeout(readRuns, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [runs]);

  const latest = useMemo(() => latestWithFigures(runs ?? []), [runs]);
  const keywords = useMemo(
    () => [...new Set([...keywordsOf(trends?.series ?? []), ...keywordsOfRun(latest)])],
    [trends, latest],
  );
  const shown = keywords.includes(keyword) ? keyword : (keywords[0] ?? '');
  const byRun = useMemo(() => tasksByRun(runs ?? []), [runs]);

  const runNow = () =>
    post<Run>(pathTo(PATHS.MONITOR_RUN, { monitorId }), {}).then(() => {
      setNote(t('runStarted'));
      return readRuns();
    }, fail);

  /** Makes a discovered brand a group of the monitor; the trends then mark it watched. */
  const watch = (name: string) => {
    setWatching(name);
    post<WatchResult>(pathTo(PATHS.MONITOR_WATCH, { monitorId }), { name })
      .then((r) => {
        setMonitor(r.monitor);
        setWatchNote(t(r.added ? 'watchAdded' : 'watchKnown', { name: r.keyword }));
        return readTrends();
      }, fail)
      .finally(() => setWatching(null));
  };

  if (error && !monitor) return <p class="error">{error}</p>;
  if (!monitor) return <p>{t('loading')}</p>;
  const prompts = monitor.prompts.map((p) => p.text);
  return (
    <section data-testid="monitor">
      <div class="row">
        <h1 class="grow" data-testid="monitor-name">
          {monitor.name}
        </h1>
        <button type="button" onClick={runNow} data-testid="run-now">
          {t('runNow')}
        </button>
      </div>
      {note && <p data-testid="run-note">{note}</p>}
      {error && <p class="error">{error}</p>}
      <dl class="card facts">
        <dt>{t('schedule')}</dt>
        <dd>
          {scheduleText(monitor.schedule)} · {monitor.enabled ? t('enabled') : t('paused')}
        </dd>
        <dt>{t('nextDue')}</dt>
        <dd>{monitor.nextDueAt ? when(monitor.nextDueAt, lang) : t('paused')}</dd>
        <dt>{t('platforms')}</dt>
        <dd>{monitor.platforms.map(platformLabel).join(', ')}</dd>
        <dt>{t('regions')}</dt>
        <dd>{monitor.regionCodes.length > 0 ? monitor.regionCodes.join(', ') : t('noRegion')}</dd>
        <dt>{t('keywords')}</dt>
        <dd>{monitor.monitorKeywords}</dd>
        <dt>{t('samplesPerCell')}</dt>
        <dd>{samplesText(monitor.samples)}</dd>
      </dl>

      <section class="card" data-testid="trends">
        <h2>{t('trends')}</h2>
        <div class="row">
          <label class="inline">
            {t('compareBy')}
            <select
              name="groupBy"
              value={groupBy}
              onChange={(e) => setGroupBy(e.currentTarget.value as GroupBy)}
            >
              {GROUP_BYS.map((g) => (
                <option value={g}>{t(`groupBy_${g}`)}</option>
              ))}
            </select>
          </label>
          {keywords.length > 1 && (
            <label class="inline">
              {t('brand')}
              <select
                name="keyword"
                value={shown}
                onChange={(e) => setKeyword(e.currentTarget.value)}
              >
                {keywords.map((k) => (
                  <option value={k}>{k}</option>
                ))}
              </select>
            </label>
          )}
        </div>
        {trends === null ? (
          <p>{t('loading')}</p>
        ) : (
          <div class="charts">
            <TrendChart series={trends.series} keyword={shown} />
            <FunnelPanel series={trends.series} keyword={shown} />
          </div>
        )}
      </section>

      <section class="card" data-testid="discovered-brands">
        <h2>{t('discovered')}</h2>
        <p class="muted">{t('discoveredNote')}</p>
        {watchNote && <p data-testid="watch-note">{watchNote}</p>}
        {trends === null ? (
          <p>{t('loading')}</p>
        ) : (
          <DiscoveredBrands series={trends.discovered} pending={watching} onWatch={watch} />
        )}
      </section>

      <section class="card">
        <h2>{t('changes')}</h2>
        {changes === null ? (
          <p>{t('loading')}</p>
        ) : (
          <ChangeFeed changes={changes} runs={byRun} prompts={prompts} />
        )}
      </section>

      <section class="card" data-testid="compare-prompt">
        <h2>{t('comparePrompt')}</h2>
        <label>
          {t('prompt')}
          <select
            name="prompt"
            value={String(prompt)}
            onChange={(e) => setPrompt(Number(e.currentTarget.value))}
          >
            {prompts.map((p, i) => (
              <option value={String(i)}>{p}</option>
            ))}
          </select>
        </label>
        <PromptCompare
          run={latest}
          prompts={prompts}
          prompt={prompt}
          keyword={shown}
          gaps={trends?.channelGap ?? []}
        />
      </section>

      <section class="card">
        <h2>{t('runs')}</h2>
        {runs === null ? <p>{t('loading')}</p> : <MonitorRuns runs={runs} />}
      </section>
    </section>
  );
}
