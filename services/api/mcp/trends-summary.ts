/**
 * The one-line summary of `monitor_trends`, pure: the series and points, the
 * discovered brands, and the API–web gap series, each gap named with its
 * newest run's figures (API − web with its 95 % interval, both rates with
 * theirs and n), as the dashboard writes them, so an assistant can quote the
 * gap without reading the structured content.
 */
import type { Trends } from '../../shared/contracts/monitor-trends.js';
import { gapPointText } from '../../shared/figure-text.js';

/** Gap series named in the line; more are counted. */
export const GAPS_NAMED = 10;

export function trendsSummary(data: Trends): string {
  const points = data.series.reduce((n, s) => n + s.points.length, 0);
  const unwatched = data.discovered.filter((d) => !d.watched).length;
  const head = `${data.series.length} series by ${data.groupBy}, ${points} points, ${data.discovered.length} discovered brand series (${unwatched} not watched), ${data.channelGap.length} API–web gap series (definitions v${data.definitionsVersion})`;
  if (data.channelGap.length === 0) return head;
  const named = data.channelGap
    .slice(0, GAPS_NAMED)
    .map(
      (g) => `${g.platform}, prompt ${g.prompt}, ${g.keyword}: ${gapPointText(g.points.at(-1)!)}`,
    );
  const more = data.channelGap.length - named.length;
  return `${head}; newest run's API − web: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
