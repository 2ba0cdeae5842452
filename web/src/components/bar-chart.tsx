/**
 * One Chart.js chart on a canvas, rebuilt when its data changes, destroyed on
 * unmount; with `empty`, that sentence instead of a blank chart. Bars for the
 * task's visibility; lines with filled interval bands for a monitor's trends.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

// Only what bar and line charts need, so the bundle leaves out the other chart types.
Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  Filler,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
);

interface Props<T extends 'bar' | 'line'> {
  title: string;
  data: ChartData<T>;
  options?: ChartOptions<T>;
  testId: string;
  /** Why there is nothing to draw; the chart is drawn when absent. */
  empty?: string | null;
}

export function ChartFigure<T extends 'bar' | 'line'>({
  type,
  title,
  data,
  options,
  testId,
  empty,
}: Props<T> & { type: T }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (empty) return;
    const defaults: ChartOptions<T> = {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { position: 'bottom' } },
    } as ChartOptions<T>;
    const chart = new Chart<T>(canvas.current!, {
      type,
      data,
      options: { ...defaults, ...options },
    });
    return () => chart.destroy();
  }, [type, data, options, empty]);
  return (
    <figure class="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      {empty ? (
        <p class="chart-empty muted" data-testid={`${testId}-empty`}>
          {empty}
        </p>
      ) : (
        <div class="canvas-box">
          <canvas ref={canvas} role="img" aria-label={title} />
        </div>
      )}
    </figure>
  );
}

export const BarChart = (props: Props<'bar'>) => <ChartFigure type="bar" {...props} />;
