/**
 * The brands the monitor's answers recommend that no group watches
 * (trends' `discovered`): per group, the newest share with its 95 % interval,
 * the shares run by run, the mean place, and a "watch" button that makes the
 * brand a group of the monitor (POST …/watch), measured from the next run.
 */
import { useT } from '../i18n.js';
import { rateText } from '../../../services/shared/figure-text.js';
import type { DiscoveredSeries } from '../monitor-types.js';
import { shareTrend } from '../monitor-text.js';

interface Props {
  series: readonly DiscoveredSeries[];
  /** The name being watched now: its button waits. */
  pending: string | null;
  onWatch: (name: string) => void;
}

export function DiscoveredBrands({ series, pending, onWatch }: Props) {
  const t = useT();
  if (series.length === 0)
    return (
      <p class="muted" data-testid="discovered-empty">
        {t('noDiscoveredYet')}
      </p>
    );
  return (
    <div class="grid-scroll">
      <table class="data" data-testid="discovered">
        <thead>
          <tr>
            <th>{t('discoveredBrand')}</th>
            <th>{t('discoveredGroup')}</th>
            <th>{t('discoveredShare')}</th>
            <th>{t('discoveredTrend')}</th>
            <th>{t('discoveredPlace')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {series.map((s) => {
            const last = s.points.at(-1);
            return (
              <tr data-testid="discovered-row">
                <td data-testid="discovered-name">{s.name}</td>
                <td>{s.group}</td>
                <td>{last ? rateText(last.share) : '—'}</td>
                <td>{shareTrend(s.points)}</td>
                <td>{last?.position ? last.position.mean.toFixed(1) : '—'}</td>
                <td>
                  {s.watched ? (
                    <span class="muted" data-testid="discovered-watched">
                      {t('watched')}
                    </span>
                  ) : (
                    <button
                      type="button"
                      data-testid="watch"
                      disabled={pending !== null}
                      onClick={() => onWatch(s.name)}
                    >
                      {pending === s.name ? t('watching') : t('watch')}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
